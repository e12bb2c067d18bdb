# frozen_string_literal: true

# A mounted store whose search is cut by the deadline inside a file it
# streams (Active Storage's big blobs): the tree shows what was read of it,
# with full paths, and the engine's note saying where to read on.
RSpec.describe RubyLLM::FileStore::Mounts do
  # A Memory store that hands search big.log as a download: its first 40
  # lines, then nothing more until the search has run out of time.
  let(:slow_store_class) do
    Class.new(RubyLLM::FileStore::Memory) do
      def texts_for_search(files, stop:)
        files.map do |file|
          bytes = read(file.path)
          next [file.path, bytes] unless file.path == 'big.log'

          [file.path, download(bytes, stop)]
        end
      end

      def download(bytes, stop)
        cut = bytes.index('line 41 ')
        Object.new.tap do |source|
          source.define_singleton_method(:each_chunk) do |&block|
            next unless block.call(bytes[0, cut])

            sleep 0.01 until stop.call # the search's own deadline, not a guess
            block.call(bytes[cut..])
          end
        end
      end
    end
  end

  it 'shows the lines read of a file the deadline cut, and says where to read on, with its full path' do
    logs = slow_store_class.new
    logs.write('big.log', (1..100).map { |n| "line #{n} needle\n" }.join)
    chat = RubyLLM::FileStore::Memory.new
    chat.write('a.md', "needle in a\n")
    tree = described_class.new(chat, 'logs' => logs)
    out = tree.search('needle', timeout: 0.5, max_matches: nil, max_chars: nil)
    lines = out.lines
    expect(lines.first).to eq("a.md:1:needle in a\n")
    expect(lines[1..40]).to eq((1..40).map { |n| "logs/big.log:#{n}:line #{n} needle\n" })
    expect(lines[41..]).to eq(['[Stopped: the search ran out of time at line 40 of logs/big.log, after 1 file ' \
                               'before it. Read the rest of that file with read_file from offset 41; to reach ' \
                               "the files after it, narrow the search with path or glob.]\n"])
  end
end
