# frozen_string_literal: true

# Whether a block runs without Ruby's global lock. Ruby marks a thread inside
# a call that released the GVL (rb_thread_call_without_gvl) as stopped, so it
# reports 'sleep'; one holding the GVL reports 'run', and then the watching
# thread only gets in at the timer's switches anyway. This reads the state
# itself instead of counting how often another thread ran meanwhile, which a
# loaded machine skews.
module GvlProbe
  # Runs the block in a thread of its own and watches it until it ends.
  # Returns whether it was ever seen in a call without the GVL, and the
  # block's value.
  def self.run(&)
    worker = Thread.new(&)
    released = false
    until released || !worker.alive?
      released = worker.status == 'sleep'
      Thread.pass
    end
    [released, worker.value]
  end
end
