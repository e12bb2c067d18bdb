# frozen_string_literal: true

# A Ruby thread that counts while the example works, to show that a native
# call released the GVL: if it did not, the count stands still meanwhile.
class Ticker
  def initialize
    @ticks = 0
    @thread = Thread.new do
      loop do
        @ticks += 1
        Thread.pass
      end
    end
  end

  attr_reader :ticks

  # How far the count moved while the block ran, and the block's result.
  def during
    before = @ticks
    result = yield
    [@ticks - before, result]
  end

  def stop = @thread.kill
end
