# frozen_string_literal: true

require 'fiddle'
require 'json'

# The other side of symlink_swap_spec.rb: a separate process (so it runs in
# parallel with the store's Ruby threads, whatever the GVL does) that swaps
# parts of a store for symbolic links to a folder beside it, as fast as it
# can. Each swap is one atomic renameat2(RENAME_EXCHANGE) of a real entry
# with a hidden link next to it, so the name is never missing: a store that
# checks a name and then uses it by path reaches the outside folder.
#
#   ruby symlink_swapper.rb STORE_ROOT MAX_SECONDS
#
# prints "ready" once it swaps, stops on SIGTERM (or after MAX_SECONDS, or
# when its parent is gone), puts every name back as it was, and prints a
# JSON line of the swaps done per name.
class SymlinkSwapper
  # [folder in the store, visible name, hidden name of the link, link target].
  # The sub folder's link is relative; deep's is made absolute by lay_out.
  PAIRS = [
    ['', 'sub', '.sublink', '../outside'],
    %w[sub deep .deeplink outside/deep],
    ['sub', 'swap.txt', '.swaplink', '../../outside/a.txt']
  ].freeze
  # The files a store holds before the race, and their content.
  INSIDE = %w[sub/a.txt sub/deep/b.txt sub/swap.txt].freeze
  EXCHANGE = 2 # RENAME_EXCHANGE
  NOREPLACE = 1 # RENAME_NOREPLACE
  ENOENT = 2
  AT_FDCWD = -100

  RENAMEAT2 = Fiddle::Function.new(
    Fiddle::Handle::DEFAULT['renameat2'],
    [Fiddle::TYPE_INT, Fiddle::TYPE_VOIDP, Fiddle::TYPE_INT, Fiddle::TYPE_VOIDP, Fiddle::TYPE_INT],
    Fiddle::TYPE_INT
  )

  def self.inside_content(path) = "inside #{path}\nEND\n"

  # The link target of +pair+: deep's link is absolute, to test both kinds.
  def self.target(root, pair)
    target = pair[3]
    target.start_with?('.') ? target : File.join(File.dirname(root), target)
  end

  # Makes the store's side: the inside files and, next to each swapped
  # name, its hidden link. The spec makes the outside folder.
  def self.lay_out(root)
    INSIDE.each do |path|
      FileUtils.mkdir_p(File.join(root, File.dirname(path)))
      File.write(File.join(root, path), inside_content(path))
    end
    PAIRS.each { |pair| File.symlink(target(root, pair), File.join(root, pair[0], pair[2])) }
  end

  def self.rename(from, to, flags, dir: AT_FDCWD)
    RENAMEAT2.call(dir, from, dir, to, flags).zero? ? 0 : Fiddle.last_error
  end

  # Puts every real entry back under its visible name (the link under the
  # hidden one), by path: called by the swapper when it stops, and by the
  # spec after killing it.
  def self.restore(root)
    PAIRS.each do |folder, name, hidden, _target|
      visible = File.join(root, folder, name)
      next unless File.symlink?(visible)

      link = File.join(root, folder, hidden)
      if File.symlink?(link)
        File.unlink(visible) # two links: a race left no real entry here
      else
        rename(visible, link, File.exist?(link) ? EXCHANGE : NOREPLACE)
      end
    end
  end

  def initialize(root, seconds)
    @root = root
    @deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    @parent = Process.ppid
    @stop = false
    # Folder descriptors, taken while every entry is real: they follow the
    # real sub folder wherever the swaps move it.
    @dirs = { '' => Dir.new(root), 'sub' => Dir.new(File.join(root, 'sub')) }
    @swaps = Hash.new(0)
    @repairs = 0
  end

  def run
    Signal.trap('TERM') { @stop = true }
    $stdout.puts 'ready'
    $stdout.flush
    rounds = 0
    until stop?(rounds += 1)
      PAIRS.each { |pair| swap(pair) }
      PAIRS.each { |pair| check(pair) } if (rounds % 64).zero?
    end
  ensure
    self.class.restore(@root)
    $stdout.puts JSON.generate(swaps: @swaps, repairs: @repairs)
  end

  private

  def stop?(rounds)
    return true if @stop
    return false unless (rounds % 256).zero?

    Process.clock_gettime(Process::CLOCK_MONOTONIC) > @deadline || Process.ppid != @parent
  end

  def fd(folder) = @dirs.fetch(folder).fileno

  def swap(pair)
    folder, name, hidden, = pair
    if self.class.rename(name, hidden, EXCHANGE, dir: fd(folder)).zero?
      @swaps[name] += 1
    else
      check(pair)
    end
  end

  # The store may delete or replace either side (a delete or write that
  # raced a swap removes the link, or puts a file where it was): puts a
  # link back on the hidden side. A missing visible name waits for the
  # store to write it again.
  def check(pair)
    folder, name, hidden, = pair
    visible = kind(folder, name)
    link = kind(folder, hidden)
    return if [visible, link].sort == %i[link real]

    @repairs += 1
    repair(pair, visible, link)
  rescue SystemCallError
    nil # the store moved on meanwhile: the next check sees it
  end

  def repair(pair, visible, link)
    folder, name, hidden, = pair
    dir = "/proc/self/fd/#{fd(folder)}"
    case [visible, link]
    in [:missing, :real] then self.class.rename(hidden, name, NOREPLACE, dir: fd(folder))
    in [:link, :missing] then self.class.rename(name, hidden, NOREPLACE, dir: fd(folder))
    in [:link, :link] then File.unlink(File.join(dir, name))
    in [:real, :real] then File.unlink(File.join(dir, hidden)) # a file the store no longer sees
    else nil
    end
    make_link(pair) if kind(folder, hidden) == :missing && kind(folder, name) != :link
  end

  def make_link(pair)
    folder, _name, hidden, = pair
    File.symlink(self.class.target(@root, pair), "/proc/self/fd/#{fd(folder)}/#{hidden}")
  rescue Errno::EEXIST
    nil
  end

  def kind(folder, name)
    File.lstat("/proc/self/fd/#{fd(folder)}/#{name}").symlink? ? :link : :real
  rescue Errno::ENOENT
    :missing
  end
end

if $PROGRAM_NAME == __FILE__
  require 'fileutils'
  root, seconds = ARGV
  SymlinkSwapper.new(root, Float(seconds)).run
end
