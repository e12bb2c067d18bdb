# frozen_string_literal: true

require 'digest'

# Data crosses the Ruby/Rust boundary by name: the binding reads Hashes field
# by field and answers objects with readers (or the gem's own value objects,
# made with keywords), so a field renamed, misspelt or left out on one side
# is an error at once, never a value read into another field.
RSpec.describe 'Named fields across the native boundary', :native do
  let(:native) { RubyLLM::FileStores::Native }
  # A search over texts takes no folder and no glob: the store lists the
  # files its glob keeps before it reads their texts.
  let(:request) do
    { pattern: 'b', case_sensitive: false, context: 0, files_only: false, max_matches: nil, max_chars: nil,
      timeout: 10.0 }
  end
  let(:folder_request) { request.merge(folder: '', glob: nil, glob_lead: '') }

  around { |example| Dir.mktmpdir { |dir| (@dir = dir) && example.run } }

  it 'reads a search request by name, refusing unknown and missing fields and wrong types' do
    search = native::TextSearch.start(request.merge(files_only: true))
    search.feed({ 'a.md' => "a\nb\n", 'c.md' => "c\n" })
    expect(search.finish.text).to eq("a.md\n")
    expect { native::TextSearch.start(request.merge(contxt: 1)) }
      .to raise_error(ArgumentError,
                      /\Aunknown search request field :contxt; the fields are :pattern, :case_sensitive,/)
    expect { native::TextSearch.start(request.merge('pattern' => 'b')) }
      .to raise_error(ArgumentError, /unknown search request field "pattern"/)
    expect { native::TextSearch.start(request.merge(glob: '*.md')) }
      .to raise_error(ArgumentError, /unknown search request field :glob/)
    expect { native::TextSearch.start(request.except(:timeout, :context)) }
      .to raise_error(ArgumentError, 'search request is missing :context, :timeout')
    expect { native::TextSearch.start(request.merge(context: 'one')) }
      .to raise_error(TypeError, /\Asearch request field :context: /)
    core = native::DirCore.open(@dir, nil)
    expect { core.search(folder_request.merge(max_match: 1), {}) }.to raise_error(ArgumentError, /field :max_match/)
    expect { core.search(folder_request.except(:glob_lead), {}) }
      .to raise_error(ArgumentError, 'search request is missing :glob_lead')
    expect(core.search(folder_request, {}).text).to eq("No matches.\n")
  end

  it 'reads read_lines windows by name and answers a LineWindow' do
    File.write(File.join(@dir, 'a.md'), "one\ntwo\nthree\n")
    core = native::DirCore.open(@dir, nil)
    window = core.read_lines('a.md', offset: 2, limit: 1, max_chars: nil)
    digest = Digest::SHA256.hexdigest("one\ntwo\nthree\n")
    expect(window).to eq(RubyLLM::FileStore::LineWindow.new(text: "two\n", shown: 1, total: 3, cut: false, digest:))
    expect { core.read_lines('a.md', first: 2, limit: 1, max_chars: nil) }
      .to raise_error(ArgumentError, /unknown line window field :first/)
  end

  it 'makes StoredFiles and listings through their own new, with keywords' do
    made = []
    recording = Class.new(RubyLLM::StoredFile) do
      define_method(:initialize) do |**fields|
        made << fields.keys
        super(**fields)
      end
    end
    stub_const('RubyLLM::StoredFile', recording)
    store = RubyLLM::NativeDir.new(@dir)
    written = store.write('notes/a.md', "a\n")
    listing = store.listing
    expect([written, *listing.files, store['notes/a.md']]).to all(be_an_instance_of(recording))
    expect(listing).to be_a(RubyLLM::FileStore::Listing)
    expect(listing.to_h).to include(files: [written], unnamed: [], deep: [])
    expect(made).to eq([%i[path byte_size content_type digest updated_at]] * 3)
  end

  it 'takes edits by name and answers an outcome read by name' do
    applied = native.apply_edits('a b a', [{ old_text: 'a', new_text: 'x', replace_all: true },
                                           { old_text: 'b', new_text: 'y', replace_all: false }])
    expect([applied.applied?, applied.content, applied.counts, applied.failure]).to eq([true, 'x y x', [2, 1], nil])
    ambiguous = native.apply_edits('a a', [{ old_text: 'a a', new_text: 'a a', replace_all: true },
                                           { old_text: 'a', new_text: 'x', replace_all: false }])
    expect([ambiguous.applied?, ambiguous.content, ambiguous.failure, ambiguous.index, ambiguous.count])
      .to eq([false, nil, :ambiguous, 1, 2])
    expect { native.apply_edits('a', [{ old: 'a', new_text: 'b', replace_all: false }]) }
      .to raise_error(ArgumentError, /unknown edit field :old;.*:old_text, :new_text, :replace_all/)
    expect { native.apply_edits('a', [['a', 'b', false]]) }.to raise_error(TypeError)
  end

  it 'takes a sweep budget by name and answers what it found by name' do
    tree = native::RunTree.snapshot(@dir)
    File.write(File.join(@dir, 'made.txt'), 'abc')
    swept = tree.sweep(@dir, skip: [], entries: 100, bytes: 1 << 20)
    expect(swept.left.map { |e| [e.path, e.created?, e.kind, e.size] }).to eq([['made.txt', true, :file, 3]])
    expect([swept.gone, swept.removed, swept.removed_count, swept.stripped_count]).to eq([[], [], 0, 0])
    expect { tree.sweep(@dir, skip: [], entries: 100, byte: 1) }
      .to raise_error(ArgumentError, /unknown sweep field :byte/)
  end
end
