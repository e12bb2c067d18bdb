# frozen_string_literal: true

require 'stringio'

# Guarantees (README: Attachments, URL attachments) through a real chat on
# each ruby_llm line: the files a tool returns stay in chat.messages while
# the model sees one line per file; a URL attachment is fetched by a careful
# client, and a fetch that fails or is refused never fails the request;
# with_file_store('memory') is refused; a tool result ruby_llm refuses gets
# its ArgumentError. Every server here is on 127.0.0.1.
RSpec.describe 'Tool files, URL attachments and store arguments in a chat', :integration do
  include_context 'in a temporary folder'

  let(:s) { ScriptedOpenAIServer }
  let(:png) { "\x89PNG\r\n\x1A\n#{'r' * 16_376}".b }

  RubyLLMSource.each_version(self) do
    def attachments_of(message)
      return message.attachments if message.respond_to?(:attachments)

      message.content.respond_to?(:attachments) ? message.content.attachments : []
    end

    # The parts of a user message's content as sent: its text, and the
    # image URLs.
    def question_parts(content)
      parts = content.is_a?(Array) ? content : [{ 'type' => 'text', 'text' => content }]
      { text: parts.select { |p| p['type'] == 'text' }.map { |p| p['text'] }.join("\n"),
        images: parts.select { |p| p['type'] == 'image_url' }.map { |p| p.dig('image_url', 'url') } }
    end

    # A tool returning text and the same image twice: ruby_llm main takes
    # an Array, 1.16 a RubyLLM::Content.
    def finder(bytes)
      Class.new(RubyLLM::Tool) do
        def self.name = 'Finder'
        description 'Finds pictures'
        define_method(:execute) do
          pictures = Array.new(2) { RubyLLM::Attachment.new(StringIO.new(bytes), filename: 'ruby.png') }
          if defined?(RubyLLM::Content) && !RubyLLM::Message.method_defined?(:attachments)
            RubyLLM::Content.new(
              'Found:', pictures
            )
          else
            ['Found:', *pictures]
          end
        end
      end
    end

    it 'keeps the files a tool returns in chat.messages, and sends one line for the same file kept once' do
      bytes = png
      facts = with_server([s.tool_calls(['finder', {}]), s.text('Two.'), s.tool_calls(['finder', {}]),
                           s.text('Two again.')]) do |server|
        plain = new_chat.with_tools(finder(bytes))
        plain.ask 'Find rubies'
        chat = new_chat.with_file_store.with_tools(finder(bytes))
        chat.ask 'Find rubies'
        tool_message = ->(c) { c.messages.find { |m| m.role == :tool } }
        { plain: attachments_of(tool_message.call(plain)).size,
          kept: attachments_of(tool_message.call(chat)).map(&:filename),
          sent: tool_contents(server.requests.last), files: chat.file_store.list.map(&:path) }
      end

      expect(facts[:plain]).to eq(2)
      expect(facts[:kept]).to eq(%w[ruby.png ruby.png])
      expect(facts[:sent]).to eq(["Found:\n\nruby.png (image/png, 16 KB) is in this chat's files."])
      expect(facts[:files]).to eq(['ruby.png'])
    end

    it "gives a tool result mixing files with other values ruby_llm's ArgumentError" do
      facts = with_server([s.tool_calls(['mixed', {}]), s.text('Done.')]) do
        mixed = Class.new(RubyLLM::Tool) do
          def self.name = 'Mixed'
          description 'Returns a number and a file'
          def execute = ['Found:', 42, RubyLLM::Attachment.new(StringIO.new('x'), filename: 'x.txt')]
        end
        begin
          new_chat.with_file_store.with_tools(mixed).ask('Go')
          { raised: nil }
        rescue StandardError => e
          { raised: e.class.name, message: e.message }
        end
      end

      expect(facts).to eq(raised: 'ArgumentError',
                          message: 'Tool results mixing attachments can only contain Strings and RubyLLM::Attachments')
    end

    it 'refuses a URL on a loopback address or in another scheme without fetching it, and still asks' do
      bytes = png
      facts = with_server([s.text('Seen.')]) do |server|
        files = UrlServer.start('ruby.png' => [200, bytes])
        begin
          chat = new_chat.with_file_store
          ftp = RubyLLM::Attachment.new(URI("ftp://127.0.0.1:#{files.port}/a.png"))
          answer = chat.ask('What is this?', with: [files.url('ruby.png'), ftp])
          { answer: answer.content, fetched: files.requests,
            question: question_parts(user_contents(server.requests.last).last),
            url: files.url('ruby.png'), port: files.port, stored: chat.file_store.list.map(&:path),
            attachments: attachments_of(chat.messages.first).size }
        ensure
          files.stop
        end
      end

      expect(facts).to include(answer: 'Seen.', fetched: [], stored: [], attachments: 2)
      expect(facts[:question][:text]).to eq(
        "What is this?\n\n#{facts[:url]} could not be kept in this chat's files: 127.0.0.1 is a loopback address. " \
        "read_file cannot open it.\nftp://127.0.0.1:#{facts[:port]}/a.png could not be kept in this chat's files: " \
        'only http and https URLs are fetched, not ftp:. read_file cannot open it.'
      )
      expect(facts[:question][:images]).to eq([facts[:url], "ftp://127.0.0.1:#{facts[:port]}/a.png"])
    end

    it 'fetches a URL within its bounds, following redirects itself, and says why each other one was not kept' do
      bytes = png
      other = "\x89PNG\r\n\x1A\n#{'o' * 100}".b
      facts = with_server([s.text('Seen.'), s.text('Again.')]) do |server|
        files = UrlServer.start(
          'ruby.png' => [200, bytes], 'big.png' => [200, 'b' * 40_000],
          'drip.png' => [200, 'd' * 40_000, { chunked: true }],
          'gone.png' => [404, 'no'], 'slow.png' => :hold, 'metadata.png' => [302, 'http://169.254.169.254/latest/x.png'],
          'local.png' => [302, 'http://127.0.0.2:9/x.png'], 'file.png' => [302, 'file:///etc/passwd'],
          'loop.png' => [302, '/loop.png'], 'moved.png' => [301, '/other.png'], 'other.png' => [200, other]
        )
        begin
          RubyLLM.configure do |config|
            # The old build has no such settings: it fetches unbounded, and fails on gone.png.
            next unless config.respond_to?(:attachment_url_allowed_hosts=)

            config.attachment_url_allowed_hosts = ['127.0.0.1']
            config.attachment_url_max_bytes = 32_768
            config.attachment_url_timeout = 1
          end
          names = %w[ruby.png moved.png gone.png big.png drip.png slow.png metadata.png local.png file.png loop.png]
          chat = new_chat.with_file_store
          answers = [chat.ask('What are these?', with: names.map { |name| files.url(name) }).content,
                     chat.ask('And now?').content]
          { answers:, fetched: files.requests.map(&:first).tally, hosts: files.requests.map(&:last).uniq,
            first: question_parts(user_contents(server.requests.first).first),
            later: question_parts(user_contents(server.requests.last).first),
            stored: chat.file_store.list.to_h { |file| [file.path, chat.file_store.read(file.path)] },
            urls: names.to_h { |name| [name, files.url(name)] }, port: files.port }
        ensure
          files.stop
        end
      end

      urls = facts[:urls]
      expect(facts[:answers]).to eq(%w[Seen. Again.])
      expect(facts[:stored]).to eq('ruby.png' => png, 'moved.png' => other)
      expect(facts[:hosts]).to eq(["127.0.0.1:#{facts[:port]}"])
      expect(facts[:fetched]).to include('/ruby.png' => 1, '/moved.png' => 1, '/other.png' => 1, '/loop.png' => 6)
      expect(facts[:fetched].keys).to contain_exactly(*%w[/ruby.png /moved.png /other.png /gone.png /big.png /drip.png
                                                          /slow.png /metadata.png /local.png /file.png /loop.png])
      not_kept = lambda { |name, why|
        "#{urls[name]} could not be kept in this chat's files: #{why}. read_file cannot open it."
      }
      lines = [not_kept['gone.png', 'the server answered 404 Not Found'],
               not_kept['big.png', 'it is larger than 32 KB, the most a URL attachment is fetched for'],
               not_kept['drip.png', 'it is larger than 32 KB, the most a URL attachment is fetched for'],
               not_kept['slow.png', 'it took longer than 1 s to fetch'],
               not_kept['metadata.png',
                        '169.254.169.254 is a link-local address, where cloud metadata services answer'],
               not_kept['local.png', '127.0.0.2 is a loopback address'],
               not_kept['file.png', 'only http and https URLs are fetched, not file:'],
               not_kept['loop.png', 'it redirected more than 5 times']]
      expect(facts[:first][:text]).to eq("What are these?\n\n#{lines.join("\n")}")
      # Sent as plain ruby_llm sends a URL, kept or not.
      expect(facts[:first][:images]).to eq(urls.values)
      expect(facts[:later][:images]).to eq(urls.values.drop(2))
      kept = ["ruby.png (image/png, 16 KB) is in this chat's files.",
              "moved.png (image/png, 108 bytes) is in this chat's files."]
      expect(facts[:later][:text]).to eq("What are these?\n\n#{(kept + lines).join("\n")}")
    end

    it "refuses with_file_store('memory'), a String, naming :memory, and makes no folder" do
      facts = Dir.chdir(@tmp) do
        with_server([]) do
          errors = [-> { new_chat.with_file_store('memory') },
                    -> { Class.new(RubyLLM::Agent) { file_store 'memory' } },
                    -> { new_chat.with_file_store(:memory, mounts: { 'scratch' => 'memory' }) }].map do |call|
            call.call
            nil
          rescue ArgumentError => e
            e.message
          end
          { errors:, folder: File.exist?('memory'), symbol: new_chat.with_file_store(:memory).file_store.class.name }
        end
      end

      expect(facts[:errors]).to all(include('pass the Symbol :memory'))
      expect(facts).to include(folder: false, symbol: 'RubyLLM::FileStore::Memory')
    end
  end
end
