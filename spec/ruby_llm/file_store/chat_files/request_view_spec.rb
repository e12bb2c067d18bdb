# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::ChatFiles::RequestView do
  message = Struct.new(:role, :content, :attachments, keyword_init: true)
  file = ->(path, type, size) { RubyLLM::StoredFile.new(path:, byte_size: size, content_type: type, digest: 'd') }

  let(:contract) { file.call('contract-v2.pdf', 'application/pdf', 2_200_000) }
  let(:notes) { file.call('notes.md', 'text/markdown', 812) }
  let(:word) { file.call('plan.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 9000) }
  let(:kept) { { 'pdf' => contract, 'md' => notes, 'docx' => word } }
  let(:texts) { {} }
  let(:view) do
    described_class.new(kept: kept.method(:[]), supported: ->(a) { a != 'docx' }, convert: texts.method(:[]),
                        rebuild: ->(m, content, atts) { m.class.new(**m.to_h, content:, attachments: atts) },
                        inline_limit: 20)
  end

  def ask(content, *attachments) = message_class.new(role: :user, content:, attachments:)
  define_method(:message_class) { message }

  it 'sends the latest question in full and earlier attachments as one line each' do
    messages = [ask('Compare these', 'pdf', 'md'), message.new(role: :assistant, content: 'Done', attachments: []),
                ask('And now?', 'md')]
    sent = view.call(messages)
    expect(sent.map { |m| [m.content, m.attachments] }).to eq(
      [["Compare these\n\ncontract-v2.pdf (application/pdf, 2.1 MB) is in this chat's files.\n" \
        "notes.md (text/markdown, 812 bytes) is in this chat's files.", []],
       ['Done', []], ['And now?', ['md']]]
    )
    expect(messages.first.attachments).to eq(%w[pdf md])
    expect(view.sent_text_files).to eq([notes])
  end

  it "sends what show gives for the latest question's attachments, and the message itself when it gives them back" do
    shown = described_class.new(kept: kept.method(:[]), supported: ->(_) { true }, convert: texts.method(:[]),
                                rebuild: ->(m, content, atts) { m.class.new(**m.to_h, content:, attachments: atts) },
                                inline_limit: 20, show: ->(a) { a == 'md' ? 'md (renamed)' : a })
    question = ask('Look', 'pdf', 'md')
    expect(shown.call([question]).first.attachments).to eq(['pdf', 'md (renamed)'])
    plain = ask('Look', 'pdf')
    expect(shown.call([plain]).first).to be(plain)
  end

  it 'does not count an image or PDF sent in full as read' do
    view.call([ask('Look', 'pdf')])
    expect(view.sent_text_files).to be_empty
  end

  it 'leaves attachments it did not keep as they are' do
    sent = view.call([ask('Old', 'upload', 'pdf'), ask('New')])
    expect(sent.first.attachments).to eq(['upload'])
  end

  it 'sends an attachment the provider cannot take as its text, cut at the limit with a note' do
    texts[word] = 'Plan: ship the store in May, then the agents.'
    sent = view.call([ask('Read the plan', 'docx')]).first
    expect(sent.attachments).to be_empty
    expect(sent.content).to eq(
      "Read the plan\n\n<file name='plan.docx' mime_type='#{word.content_type}' sent_as='text'>\n" \
      "Plan: ship the store\n</file>\n[plan.docx has 45 characters as text, so only the start is shown. The rest " \
      "is in this chat's files: read more with read_file, or search it with search_files.]"
    )
    expect(view.sent_text_files).to be_empty
  end

  it 'sends an attachment no converter reads as the line, on its own question' do
    sent = view.call([ask(nil, 'docx')]).first
    expect(sent.content).to eq("plan.docx (#{word.content_type}, 8.8 KB) is in this chat's files.")
  end

  it "sends tool results' files in full until the next question, then as lines" do
    tool_result = message.new(role: :tool, content: '', attachments: ['pdf'])
    current = view.call([ask('Q1'), tool_result])
    later = view.call([ask('Q1'), tool_result, ask('Q2')])
    expect(current.last.attachments).to eq(['pdf'])
    expect(later[1].content).to eq("contract-v2.pdf (application/pdf, 2.1 MB) is in this chat's files.")
  end
end
