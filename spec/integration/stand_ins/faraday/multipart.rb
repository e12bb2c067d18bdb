# frozen_string_literal: true

# Stand-in for the faraday-multipart gem on Faraday 1, which has it built in.
require 'faraday'

module Faraday
  module Multipart
    FilePart = Faraday::FilePart
    ParamPart = Faraday::ParamPart
  end
end
