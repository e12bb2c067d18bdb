# frozen_string_literal: true

# One definition of a file's text (issue #41; issue #39, items 7 and 8):
# read_file, search_files, edit_file and apply_patch read the same text from
# a file's bytes (a byte order mark dropped, UTF-16 and UTF-32 transcoded),
# and the edits write the result back in the file's encoding, with its mark.
# Include with a `store` let.
RSpec.shared_examples 'a store with one text per file' do
  let(:text_tools) do
    RubyLLM::FileStore::Tools.for(store, tools: %i[read edit patch]).to_h { |tool| [tool.name, tool] }
  end

  def tool(name, **args) = text_tools.fetch(name).call(args.transform_keys(&:to_s))

  # +text+ as a file in +encoding+ holds it, with its byte order mark.
  def encoded(text, encoding) = "\uFEFF#{text}".encode(encoding).b

  # A C# file as Visual Studio saves it, and the files holding it in each encoding.
  def csharp = "using System;\r\nclass Ünïcödé { }\r\n"

  def wide
    { 'u16le.cs' => Encoding::UTF_16LE, 'u16be.cs' => Encoding::UTF_16BE,
      'u32le.cs' => Encoding::UTF_32LE, 'u32be.cs' => Encoding::UTF_32BE }
  end

  # +text+ as the file at +path+ holds it (see #every_encoding).
  def as_file(text, kind)
    case kind
    when :utf8 then text.b
    when :bom then "\xEF\xBB\xBF".b + text.b
    else encoded(text, kind)
    end
  end

  def every_encoding = wide.merge('utf8.cs' => :utf8, 'bom.cs' => :bom)

  def patch(path, old_line, new_line)
    "*** Begin Patch\n*** Update File: #{path}\n@@\n-#{old_line}\n+#{new_line}\n class Ünïcödé { }\n*** End Patch"
  end

  it 'searches a UTF-32 (and UTF-16) file with a BOM as the text read_file shows' do
    wide.each { |path, encoding| store.write(path, encoded(csharp, encoding), content_type: 'text/plain') }
    out = tool('search_files', pattern: 'class Ünïcödé')
    expect(out).to eq(wide.keys.sort.map { |path| "#{path}:2:class Ünïcödé { }\n" }.join)
    expect(out).not_to include('binary')
  end

  it 'edits a UTF-16 or UTF-32 file with a BOM with edit_file, writing it back in its encoding with its BOM' do
    wide.each do |path, encoding|
      store.write(path, encoded(csharp, encoding), content_type: 'text/plain')
      expect(tool('read_file', path:)).to include('class Ünïcödé { }')
      expect(tool('edit_file', path:, old_text: "System;\nclass Ünïcödé", new_text: "Système;\nclass Wide"))
        .to eq("Edited #{path} (1 replacement).")
      expect(store.read(path).b).to eq(encoded("using Système;\r\nclass Wide { }\r\n", encoding)), path
      expect(tool('read_file', path:)).to include('using Système;')
    end
  end

  it 'changes a UTF-16 or UTF-32 file with a BOM with apply_patch, writing it back in its encoding with its BOM' do
    wide.each do |path, encoding|
      store.write(path, encoded(csharp, encoding), content_type: 'text/plain')
      tool('read_file', path:)
      expect(tool('apply_patch', patch: patch(path, 'using System;', 'using Système;')))
        .to eq("Updated #{path} (1 hunk).")
      expect(store.read(path).b).to eq(encoded("using Système;\r\nclass Ünïcödé { }\r\n", encoding)), path
    end
  end

  it 'edits line 1 of a UTF-8 file with a BOM with edit_file and apply_patch, keeping the BOM' do
    bom = "\xEF\xBB\xBF".b
    store.write('Program.cs', bom + csharp.b, content_type: 'text/plain')
    expect(tool('read_file', path: 'Program.cs')).to include('using System;')
    expect(tool('edit_file', path: 'Program.cs', old_text: 'using System;', new_text: 'using System.IO;'))
      .to eq('Edited Program.cs (1 replacement).')
    expect(store.read('Program.cs').b).to eq(bom + "using System.IO;\r\nclass Ünïcödé { }\r\n".b)
    expect(tool('apply_patch', patch: patch('Program.cs', 'using System.IO;', 'using System.Text;')))
      .to eq('Updated Program.cs (1 hunk).')
    expect(store.read('Program.cs').b).to eq(bom + "using System.Text;\r\nclass Ünïcödé { }\r\n".b)
  end

  it 'agrees in read_file, search_files and the edits on which files are text, in every encoding' do
    every_encoding.each { |path, kind| store.write(path, as_file(csharp, kind), content_type: 'text/plain') }
    found = tool('search_files', pattern: 'using System', files_only: true)
    expect(found.lines.map(&:chomp)).to eq(every_encoding.keys.sort)
    every_encoding.each do |path, kind|
      shown = tool('read_file', path:)
      expect(shown).to include('using System;').and include('class Ünïcödé { }')
      expect(shown).not_to include("\uFEFF")
      expect(tool('edit_file', path:, old_text: 'Ünïcödé', new_text: 'Plain')).to eq("Edited #{path} (1 replacement).")
      expect(store.read(path).b).to eq(as_file(csharp.sub('Ünïcödé', 'Plain'), kind)), path
    end
  end

  it 'refuses to edit a UTF-16 file whose text could not be written back as it was, changing nothing' do
    bytes = encoded("a\n", Encoding::UTF_16LE) + "\x00\xD8".b + "b\n".encode(Encoding::UTF_16LE).b
    store.write('lone.txt', bytes, content_type: 'text/plain')
    expect(tool('read_file', path: 'lone.txt')).to include("\uFFFDb")
    expect(tool('search_files', pattern: 'b$')).to eq("lone.txt:2:\uFFFDb\n")
    expect(tool('edit_file', path: 'lone.txt', old_text: 'a', new_text: 'c'))
      .to eq(error: 'Edit 1: lone.txt cannot be edited: it is UTF-16LE text with 1 sequence that is no character ' \
                    '(read_file shows each as U+FFFD), which an edit would not write back as it was; to change the ' \
                    'file, write it whole with write_file. Nothing was changed.')
    expect(tool('apply_patch', patch: "*** Begin Patch\n*** Update File: lone.txt\n@@\n-a\n+c\n*** End Patch"))
      .to include(error: start_with('lone.txt cannot be patched: it is UTF-16LE text'))
    expect(store.read('lone.txt').b).to eq(bytes)
  end
end
