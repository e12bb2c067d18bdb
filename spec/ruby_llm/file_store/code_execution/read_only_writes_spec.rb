# frozen_string_literal: true

require 'spec_helper'

# The paths read from a program's error messages about writes a read-only
# mount refused (see run_code over a tree of stores).
RSpec.describe RubyLLM::FileStore::CodeExecution::ReadOnlyWrites do
  def paths(text, names = %w[handbook docs/api]) = described_class.paths([text], names, '/work')

  it 'reads the paths Python, Ruby, sh and the coreutils name' do
    text = <<~TEXT
      OSError: [Errno 30] Read-only file system: 'handbook/a b.md'
      main.rb:1:in 'initialize': Read-only file system @ rb_sysopen - /work/handbook/r.md (Errno::EROFS)
      /run_code/main.sh: 1: cannot create handbook/s.md: Read-only file system
      touch: cannot touch 'docs/api/t.md': Read-only file system
      cp: cannot create regular file './handbook/c.md': Read-only file system
    TEXT
    expect(paths(text)).to eq(['handbook/a b.md', 'handbook/r.md', 'handbook/s.md', 'docs/api/t.md',
                               'handbook/c.md'])
  end

  it 'names only paths under a read-only mount, on lines that say the write was refused' do
    text = <<~TEXT
      OSError: [Errno 30] Read-only file system: 'notes/x.md'
      OSError: [Errno 30] Read-only file system: '/etc/handbook/x.md'
      OSError: [Errno 30] Read-only file system: 'handbook/../x.md'
      FileNotFoundError: [Errno 2] No such file or directory: 'handbook/missing.md'
      wrote handbook/fine.md
    TEXT
    expect(paths(text)).to eq([])
    expect(paths("Read-only file system: 'handbook/x.md'", [])).to eq([])
  end

  it 'names at most LIMIT paths, however many lines the code prints' do
    text = Array.new(10_000) { |i| "Read-only file system: 'handbook/f#{i}.md'\n" }.join
    expect(paths(text)).to eq(Array.new(described_class::LIMIT) { |i| "handbook/f#{i}.md" })
    late = "#{"x\n" * 100}Read-only file system handbook/late.md\n"
    expect(paths(late)).to eq(['handbook/late.md'])
  end
end
