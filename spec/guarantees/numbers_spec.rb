# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: no number a model gives makes a tool raise. JSON allows
# integers of any size; read_file's offset and limit and search_files'
# context of 99999999999999999999999 (or -1, or 1e400) give the model a
# clear answer on every store, never a RangeError, and the store methods
# raise ArgumentError for them.
RSpec.describe 'Guarantee: out-of-range numbers give { error: }, never RangeError', :native do
  huge = 99_999_999_999_999_999_999_999

  around do |example|
    Dir.mktmpdir do |dir|
      @dir = dir
      example.run
    end
  end

  { 'NativeDir' => ->(dir) { RubyLLM::NativeDir.new(dir) },
    'Memory' => ->(_) { RubyLLM::FileStore::Memory.new } }.each do |name, make|
    context "on #{name}" do
      let(:store) { make.call(@dir).tap { |s| s.write('notes.md', "one\ntwo\nthree\n") } }
      let(:tools) { RubyLLM::FileStore::Tools.for(store).to_h { |t| [t.name, t] } }

      it 'answers read_file with a huge offset: it is past the end' do
        expect(tools['read_file'].call({ 'path' => 'notes.md', 'offset' => huge }))
          .to eq(error: "offset #{huge} is past the end: notes.md has 3 lines.")
      end

      it 'reads the whole file for a huge limit' do
        expect(tools['read_file'].call({ 'path' => 'notes.md', 'limit' => huge })).to eq("one\ntwo\nthree\n")
        expect(tools['read_file'].call({ 'path' => 'notes.md', 'offset' => 2, 'limit' => huge.to_s }))
          .to eq("two\nthree\n[Lines 2-3 of 3 in notes.md.]")
      end

      it 'refuses negative, fractional, infinite and huge numbers in read_file and search_files' do
        [-huge, 1.5, Float::INFINITY, '1e400'].each do |bad|
          expect(tools['read_file'].call({ 'path' => 'notes.md', 'offset' => bad }))
            .to eq(error: 'offset must be a whole number from 1')
        end
        [huge, -huge, Float::INFINITY, -Float::INFINITY].each do |bad|
          expect(tools['search_files'].call({ 'pattern' => 'one', 'context' => bad }))
            .to eq(error: 'context must be a whole number from 0 to 50')
        end
      end

      it 'raises ArgumentError, not RangeError, from read_lines and Search.run' do
        expect { store.read_lines('notes.md', offset: huge) }.to raise_error(ArgumentError, /offset must be/)
        expect { store.read_lines('notes.md', limit: huge) }.to raise_error(ArgumentError, /limit must be/)
        expect { RubyLLM::FileStore::Search.run(store, 'one', context: huge) }
          .to raise_error(ArgumentError, /context must be/)
        expect { RubyLLM::FileStore::Search.run(store, 'one', max_matches: huge) }
          .to raise_error(ArgumentError, /max_matches must be/)
      end
    end
  end
end
