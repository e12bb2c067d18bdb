# frozen_string_literal: true

require 'find'
require 'stringio'

# search_files written the obvious way in plain Ruby, as the baseline for
# bench/search_bench.rb: Find walks the folder in name order, File.foreach
# reads each file line by line, a Regexp matches. The same rules as the
# native engine where they cost work: hidden files and folders skipped,
# symbolic links never followed, files with a NUL in their first 8 KB skipped
# as binary, lines cut to 500 characters, and the same caps (100 matching
# lines, files with files_only, or 20,000 characters; nil for none).
#
#   PlainRubySearch.new('/some/folder').run('needle', glob: '*.rb')
#   PlainRubySearch.texts([['a.md', "text\n"]], 'needle')
class PlainRubySearch
  SNIFF_BYTES = 8192
  MAX_LINE_CHARS = 500

  # The search in progress: output so far, and whether a cap was hit.
  class Output
    attr_reader :matches

    def initialize(max_matches, max_chars)
      @max_matches = max_matches
      @max_chars = max_chars
      @out = +''
      @matches = 0
      @stopped = false
    end

    def full? = @stopped

    # Adds a matching line (or a path with files_only); false once capped.
    def add(text)
      if (@max_matches && @matches >= @max_matches) || (@max_chars && @out.bytesize + text.bytesize > @max_chars)
        @stopped = true
        return false
      end
      @matches += 1
      @out << text
      true
    end

    def finish
      @out << "No matches.\n" if @out.empty?
      @out << "[Stopped: there are more matches.]\n" if @stopped
      @out
    end
  end

  def initialize(root)
    @root = File.expand_path(root)
  end

  # Searches the visible files below +path+ (relative to the root).
  def run(pattern, path: nil, glob: nil, case_sensitive: false, files_only: false, max_matches: 100,
          max_chars: 20_000)
    regexp = self.class.regexp(pattern, case_sensitive)
    output = Output.new(max_matches, max_chars)
    start = path ? File.join(@root, path) : @root
    Find.find(start) do |full|
      next if full == start

      if File.basename(full).start_with?('.')
        Find.prune
        next
      end
      stat = File.lstat(full)
      next unless stat.file? # folders are walked, links and the rest skipped

      rel = full.delete_prefix("#{@root}/")
      next if glob && !self.class.glob_match?(glob, rel)
      next if binary?(full)

      File.open(full, 'r:UTF-8') { |io| self.class.search_io(io, rel, regexp, output, files_only) }
      break if output.full?
    end
    output.finish
  end

  # Searches texts held in memory, [path, text] pairs, in path order.
  def self.texts(docs, pattern, case_sensitive: false, files_only: false, max_matches: 100, max_chars: 20_000)
    regexp = regexp(pattern, case_sensitive)
    output = Output.new(max_matches, max_chars)
    docs.sort_by(&:first).each do |rel, text|
      next if text.byteslice(0, SNIFF_BYTES).include?("\0")

      search_io(StringIO.new(text.dup.force_encoding(Encoding::UTF_8)), rel, regexp, output, files_only)
      break if output.full?
    end
    output.finish
  end

  def self.regexp(pattern, case_sensitive)
    Regexp.new(pattern, case_sensitive ? nil : Regexp::IGNORECASE)
  end

  # A glob without a slash matches the file name, one with a slash the path.
  def self.glob_match?(glob, rel)
    flags = File::FNM_PATHNAME | File::FNM_EXTGLOB
    glob.include?('/') ? File.fnmatch?(glob, rel, flags) : File.fnmatch?(glob, File.basename(rel), flags)
  end

  def self.search_io(io, rel, regexp, output, files_only)
    io.each_line.with_index(1) do |line, number|
      line = line.scrub unless line.valid_encoding?
      next unless regexp.match?(line)

      text = files_only ? "#{rel}\n" : "#{rel}:#{number}:#{line.chomp[0, MAX_LINE_CHARS]}\n"
      break if !output.add(text) || files_only
    end
  end

  private

  def binary?(full)
    head = File.binread(full, SNIFF_BYTES)
    head ? head.include?("\0") : false
  end
end
