# frozen_string_literal: true

# Run by spec/guarantees/office_limits_spec.rb in a fresh Ruby, one case per
# process: builds a crafted Office file, converts it with store.text (what
# read_file and a kept attachment run), and prints one JSON line with the
# result (cut), the process's peak resident memory (VmHWM, MB), the CPU
# seconds the conversion took and the wall seconds until it returned. The
# process may use 60 s of CPU: a conversion that spins past that is killed
# (SIGXCPU) and the case fails.
#
#   ruby spec/scripts/office_limits.rb word_label_bomb

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'json'
require 'timeout'
require 'tmpdir'
require 'zlib'

Process.setrlimit(:CPU, 60)

def peak_mb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i / 1024

# A zip of [name, content] pairs, deflated.
def zip(parts)
  out = +''.b
  central = +''.b
  parts.each do |name, content|
    local, entry = zip_entry(name, content, out.bytesize)
    out << local
    central << entry
  end
  start = out.bytesize
  out << central << [0x06054b50, 0, 0, parts.size, parts.size, central.bytesize, start, 0].pack('VvvvvVVv')
end

# The local header and data of one part, and its central directory entry.
def zip_entry(name, content, offset)
  data = Zlib::Deflate.new(Zlib::DEFAULT_COMPRESSION, -Zlib::MAX_WBITS).deflate(content, Zlib::FINISH)
  sizes = [Zlib.crc32(content), data.bytesize, content.bytesize, name.bytesize]
  [[0x04034b50, 20, 0, 8, 0, 0, *sizes, 0].pack('VvvvvvVVVvv') + name + data,
   [0x02014b50, 20, 20, 0, 8, 0, 0, *sizes, 0, 0, 0, 0, 0, offset].pack('VvvvvvvVVVvvvvvVV') + name]
end

REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
PKG = 'http://schemas.openxmlformats.org/package/2006/relationships'
W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
PRESENTATION_NS = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' \
                  "xmlns:r=\"#{REL}\" " \
                  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'.freeze

def rels(list)
  items = list.map { |id, type, target| %(<Relationship Id="#{id}" Type="#{REL}/#{type}" Target="#{target}"/>) }
  %(<?xml version="1.0"?><Relationships xmlns="#{PKG}">#{items.join}</Relationships>)
end

def word(body, numbering: nil)
  document = %(<?xml version="1.0"?><w:document xmlns:w="#{W}"><w:body>#{body}</w:body></w:document>)
  parts = [['_rels/.rels', rels([%w[rId1 officeDocument word/document.xml]])], ['word/document.xml', document]]
  if numbering
    parts << ['word/_rels/document.xml.rels', rels([%w[rId1 numbering numbering.xml]])]
    parts << ['word/numbering.xml', numbering]
  end
  zip(parts)
end

# Tables nested +depth+ deep around one paragraph of +megabytes+ MB of
# random a and b (deflating some 8 times: no zip bomb).
def nested_tables(depth, megabytes)
  text = Random.new(3).bytes(megabytes << 17).unpack1('B*').tr('01', 'ab')
  inner = "<w:p><w:r><w:t>#{text}</w:t></w:r></w:p>"
  word(('<w:tbl><w:tr><w:tc>' * depth) + inner + ('</w:tc></w:tr></w:tbl>' * depth))
end

SPREADSHEET = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'

def workbook(sheets_xml, rels_xml, sheet_parts)
  zip([['_rels/.rels', rels([%w[rId1 officeDocument xl/workbook.xml]])],
       ['xl/workbook.xml',
        %(<workbook xmlns="#{SPREADSHEET}" xmlns:r="#{REL}"><sheets>#{sheets_xml}</sheets></workbook>)],
       ['xl/_rels/workbook.xml.rels', rels_xml]] + sheet_parts)
end

def sheet(xml) = %(<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">#{xml}</worksheet>)

# A central directory of +entries+ empty entries, then +records+ end records
# each claiming one entry more than there is (so each fails at its last
# entry, after all the others are parsed), +gap+ zero bytes and one last such
# record: a zip reader that tries every record parses the directory each time.
def end_records(entries, records, gap = 0)
  cd = (0...entries).map do |i|
    name = format('p%06d.xml', i)
    [0x02014b50, 20, 20, 0, 0, 0, 0, 0, 0, 0, name.bytesize, 0, 0, 0, 0, 0, 0].pack('VvvvvvvVVVvvvvvVV') + name
  end.join
  record = [0x06054b50, 0, 0, entries + 1, entries + 1, cd.bytesize, 0, 0].pack('VvvvvVVv')
  cd + (record * records) + ("\0" * gap) + record
end

# A Word file whose document relationships hold one element with +names+
# attributes of different names and then +copies+ copies of the last: a
# reader that checks for duplicates compares each copy with every name. The
# document has one line.
def duplicate_attributes(names, copies)
  attributes = (1..names).map { |i| %(a#{i}="") }.join(' ') + (%( a#{names}="") * copies)
  rel = %(<Relationship #{attributes} Id="rId1" Type="#{REL}/styles" Target="styles.xml"/>)
  zip([['_rels/.rels', rels([%w[rId1 officeDocument word/document.xml]])],
       ['word/document.xml',
        %(<w:document xmlns:w="#{W}"><w:body><w:p><w:r><w:t>one line</w:t></w:r></w:p></w:body></w:document>)],
       ['word/_rels/document.xml.rels', %(<Relationships xmlns="#{PKG}">#{rel}</Relationships>)]])
end

CASES = {
  # A 1 MB w:lvlText (random letters, so the part is no zip bomb) and 2,000
  # numbered paragraphs: 2 GB of labels before Word's own cap on a level's
  # text.
  'word_label_bomb' => lambda do
    random = Random.new(2)
    label = Array.new(1 << 20) { ('a'.ord + random.rand(26)).chr }.join
    level = %(<w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/><w:lvlText w:val="%1#{label}"/></w:lvl>)
    numbering = %(<w:numbering xmlns:w="#{W}"><w:abstractNum w:abstractNumId="0">#{level}</w:abstractNum>) \
                '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>'
    item = '<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>' \
           '<w:r><w:t>item</w:t></w:r></w:p>'
    ['labels.docx', word(item * 2000, numbering:)]
  end,
  # Tables nested 3,300 deep around a 10 MB paragraph.
  'nested_tables' => -> { ['nested.docx', nested_tables(3300, 10)] },
  # The same under Timeout.timeout(1).
  'nested_tables_timeout' => -> { ['nested.docx', nested_tables(3300, 10)] },
  # 200,000 slide relationships, listed in the reverse of their order.
  'slide_relationships' => lambda do
    count = 200_000
    ids = (1..count).reverse_each.map { |i| %(<p:sldId id="#{i + 255}" r:id="rId#{i}"/>) }.join
    slide = %(<p:sld #{PRESENTATION_NS}><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>only slide</a:t>) \
            '</a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>'
    slide_rels = rels((1..count).map { |i| ["rId#{i}", 'slide', 'slides/slide1.xml'] })
    presentation = %(<p:presentation #{PRESENTATION_NS}><p:sldIdLst>#{ids}</p:sldIdLst></p:presentation>)
    ['deck.pptx', zip([['_rels/.rels', rels([%w[rId1 officeDocument ppt/presentation.xml]])],
                       ['ppt/presentation.xml', presentation],
                       ['ppt/_rels/presentation.xml.rels', slide_rels],
                       ['ppt/slides/slide1.xml', slide]])]
  end,
  # 300,000 merged ranges that stay open to the last row, beside 100,000
  # rows of cells they do not cover.
  'open_merges' => lambda do
    random = Random.new(1)
    rows = (1..100_000).map { |r| %(<row r="#{r}"><c r="A#{r}"><v>#{r}</v></c></row>) }.join
    merges = Array.new(300_000) do
      col = (+'C') << ('A'.ord + random.rand(26)).chr
      %(<mergeCell ref="#{col}#{random.rand(1..100_000)}:#{col}1048576"/>)
    end
    xml = sheet("<sheetData>#{rows}</sheetData><mergeCells>#{merges.join}</mergeCells>")
    ['merges.xlsx', workbook('<sheet name="S" sheetId="1" r:id="rId1"/>', rels([%w[rId1 worksheet worksheets/s.xml]]),
                             [['xl/worksheets/s.xml', xml]])]
  end,
  # One 60 KB sheet listed 20,000 times: 1.2 GB of parts if read each time.
  'sheet_listed_again' => lambda do
    rows = (1..2_000).map { |r| %(<row r="#{r}"><c r="A#{r}"><v>#{r * 7919}</v></c></row>) }.join
    entries = (1..20_000).map { |i| %(<sheet name="S#{i}" sheetId="#{i}" r:id="rId1"/>) }.join
    ['again.xlsx', workbook(entries, rels([%w[rId1 worksheet worksheets/s.xml]]),
                            [['xl/worksheets/s.xml', sheet("<sheetData>#{rows}</sheetData>")]])]
  end,
  # 40,000 attribute names and 40,000 copies of the last in one element of
  # a document's relationships (each attribute looked up walks them all).
  'duplicate_attributes' => -> { ['attributes.docx', duplicate_attributes(40_000, 40_000)] },
  'duplicate_attributes_timeout' => -> { ['attributes.docx', duplicate_attributes(40_000, 40_000)] },
  # A workbook whose one cell is _x0000_ (a NUL) before a row of text,
  # searched after it is read.
  'nul_cell' => lambda do
    cells = '<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>'
    sst = %(<sst xmlns="#{SPREADSHEET}"><si><t>_x0000_</t></si><si><t>Total due</t></si></sst>)
    ['nul.xlsx', workbook('<sheet name="S" sheetId="1" r:id="rId1"/>',
                          rels([%w[rId1 worksheet worksheets/s.xml], %w[rId2 sharedStrings sharedStrings.xml]]),
                          [['xl/worksheets/s.xml', sheet("<sheetData>#{cells}</sheetData>")],
                           ['xl/sharedStrings.xml', sst]])]
  end,
  # One shared string of 32,767 random letters used by 4,200 cells in each
  # of two sheets: 275 MB of text, over the 256 MiB limit (268 MB).
  'shared_string_repeated' => lambda do
    random = Random.new(5)
    text = Array.new(32_767) { ('a'.ord + random.rand(26)).chr }.join
    cells = (1..4_200).map { |r| %(<row r="#{r}"><c r="A#{r}" t="s"><v>0</v></c></row>) }.join
    sst = %(<sst xmlns="#{SPREADSHEET}"><si><t>#{text}</t></si></sst>)
    ['shared.xlsx', workbook('<sheet name="A" sheetId="1" r:id="rId1"/><sheet name="B" sheetId="2" r:id="rId2"/>',
                             rels([%w[rId1 worksheet worksheets/a.xml], %w[rId2 worksheet worksheets/b.xml],
                                   %w[rId3 sharedStrings sharedStrings.xml]]),
                             [['xl/worksheets/a.xml', sheet("<sheetData>#{cells}</sheetData>")],
                              ['xl/worksheets/b.xml', sheet("<sheetData>#{cells}</sheetData>")],
                              ['xl/sharedStrings.xml', sst]])]
  end,
  # 5,000 end records over a 5,000-entry directory (395 KB): 25 M entries
  # parsed, twice.
  'end_records' => -> { ['records.docx', end_records(5000, 5000)] },
  'end_records_timeout' => -> { ['records.docx', end_records(5000, 5000)] },
  # The same with one record in the last 64 KiB and the others before it.
  'end_records_far' => -> { ['records.docx', end_records(5000, 5000, 70_000)] }
}.freeze

TIMEOUTS = { 'nested_tables_timeout' => 1, 'end_records_timeout' => 1,
             'duplicate_attributes_timeout' => 1 }.freeze

name = ARGV.fetch(0)
Dir.mktmpdir('office-limits') do |dir|
  store = RubyLLM::NativeDir.new(dir)
  path, bytes = CASES.fetch(name).call
  store.write(path, bytes)
  GC.start
  cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  wall = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  result =
    begin
      limit = TIMEOUTS[name]
      text = limit ? Timeout.timeout(limit) { store.text(path) } : store.text(path)
      # A search after the read finds what the read showed.
      name == 'nul_cell' ? { text:, search: RubyLLM::FileStore::Search.run(store, 'Total') } : text
    rescue RubyLLM::FileStore::ConversionError => e
      { error: "#{e.class}: #{e.message}" }
    rescue Timeout::Error
      { error: 'timeout' }
    end
  cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu
  wall = Process.clock_gettime(Process::CLOCK_MONOTONIC) - wall
  shown = if result.is_a?(String) && result.size > 3000
            "#{result[0,
                      1000]}[#{result.size} chars]#{result[-1000..]}"
          else
            result
          end
  puts JSON.generate(case: name, result: shown, file_kb: bytes.bytesize / 1024, peak_mb:,
                     cpu_seconds: cpu.round(2), wall_seconds: wall.round(2))
end
