# frozen_string_literal: true

RubyLLM.configure do |config|
  # read_file turns a PDF into text through the converter registered for its type: PdfText reads
  # the text layer on this machine (put RubyLLM::FileStore::Converters::OCR after it for scans).
  config.file_converters['application/pdf'] = RubyLLM::FileStore::Converters::PdfText
  # An OpenAI-compatible server instead of OpenAI's: the example's test points it at its scripted one.
  config.openai_api_base = ENV['OPENAI_API_BASE'] if ENV['OPENAI_API_BASE']
end

# What ApplicationAgent's model takes. Against an OpenAI-compatible server the model is not in
# ruby_llm's registry, and it speaks chat completions (ruby_llm 2.0 would use OpenAI's Responses API).
Rails.configuration.x.llm_options =
  if ENV['OPENAI_API_BASE']
    protocols = RubyLLM::Chat.instance_method(:initialize).parameters.any? { |_, name| name == :protocol }
    { provider: :openai, assume_model_exists: true, **(protocols ? { protocol: :chat_completions } : {}) }
  else
    {}
  end
