# frozen_string_literal: true

require_relative 'office_fixtures'

# Office files through a store: text, read_file and search_files on the real
# fixtures, and the conversion leaving other Ruby threads running.
RSpec.describe 'Office files in a store' do
  include OfficeFixtures

  {
    'a Memory store' => ->(_dir) { RubyLLM::FileStore::Memory.new },
    'a NativeDir' => ->(dir) { RubyLLM::NativeDir.new(File.join(dir, 'store')) }
  }.each do |label, make|
    context "on #{label}" do
      include_context 'in a temporary folder'

      let(:store) { make.call(@tmp) }
      let(:tools) { RubyLLM::FileStore::Tools.for(store).to_h { |tool| [tool.name, tool] } }

      def call_tool(name, **args) = tools.fetch(name).call(args.transform_keys(&:to_s))

      def add(name, path = "docs/#{name}") = store.write(path, File.binread(fixture(name)))

      it 'reads each format with store.text' do
        %w[lists.docx workbook.xlsx deck.pptx].each { |name| add(name) }
        expect(store.text('docs/lists.docx')).to start_with("# 1. Introduction\nPlain paragraph.\n## 1.1 Scope\n")
        expect(store.text('docs/workbook.xlsx')).to include("Date\t2026-03-31\n", "## Secret (hidden)\n")
        expect(store.text('docs/deck.pptx')).to include("## Slide 2: Highlights\n- Revenue up\n", "Notes:\n")
      end

      it 'reads a Word file with read_file' do
        add('basic.docx')
        expect(call_tool('read_file', path: 'docs/basic.docx'))
          .to eq(convert('basic.docx'))
          .and start_with("# Quarterly report\n# Summary\n")
      end

      it 'reads a window of an Office file\'s lines with offset and limit' do
        add('deck.pptx')
        expect(call_tool('read_file', path: 'docs/deck.pptx', offset: 6, limit: 3))
          .to eq("## Slide 2: Highlights\n- Revenue up\n  - Mostly exports\n" \
                 '[Lines 6-8 of 24 in docs/deck.pptx. Read on with offset: 9.]')
      end

      it 'finds text in a .docx with search_files after one read_file' do
        add('search.docx', 'notes/meeting.docx')
        call_tool('read_file', path: 'notes/meeting.docx')
        expect(call_tool('search_files', pattern: 'zanzibar'))
          .to eq("notes/meeting.docx:2:The zanzibar project ships on Friday.\n")
        expect(RubyLLM::FileStore::Search.run(store, 'friday'))
          .to eq("notes/meeting.docx:2:The zanzibar project ships on Friday.\n")
      end

      it 'answers read_file on an unsafe file with an error naming the file and the problem' do
        add('zip_bomb.docx')
        expect(call_tool('read_file', path: 'docs/zip_bomb.docx'))
          .to eq(error: 'zip_bomb.docx could not be read as text: part word/document.xml expands to more than ' \
                        '300 MB (over the limit of 256 MB), which looks like a zip bomb')
        expect { store.text('docs/zip_bomb.docx') }
          .to raise_error(RubyLLM::FileStore::ConversionError, /zip_bomb\.docx.*zip bomb/)
      end
    end
  end

  it 'converts without the GVL' do
    bytes = File.binread(fixture('large.xlsx'))
    released, texts = GvlProbe.run do
      Array.new(3) { RubyLLM::FileStores::Native.office_to_text(bytes, 'large.xlsx', '') }
    end
    expect(texts.map { |text| text.lines.size }).to eq([5_001] * 3)
    expect(texts.first).to start_with("## Big\n0\t0\trow 0\t0\t\t0\t0-0\t0\tend\t0\n")
    expect(released).to be(true)
  end
end
