# frozen_string_literal: true

require_relative 'office_fixtures'

# The Office converter end to end, on the files spec/fixtures/office/generate.py
# makes with python-docx, openpyxl, python-pptx and raw OOXML.
RSpec.describe RubyLLM::FileStore::Converters::Office do
  include OfficeFixtures

  def lines(name) = convert(name).lines(chomp: true)

  describe 'Word' do
    it 'writes a paragraph per line, headings as Markdown, lists with labels and tables by row' do
      expect(convert('basic.docx')).to eq(<<~TEXT)
        # Quarterly report
        # Summary
        Sales grew strongly in March.
        First line
        second line\tafter a tab
        ## Details
        - Apples
        - Pears
        1. Open the box
        2. Take the pears
        Region\t\tTotal
        North\tQ1\t42
        South\tQ2
        After the table.
      TEXT
    end

    it 'joins a paragraph\'s runs whatever their formatting, and breaks lines at w:br' do
      expect(lines('basic.docx')).to include('Sales grew strongly in March.', 'First line', "second line\tafter a tab")
    end

    it 'reads the Title style and Heading N as N #' do
      expect(lines('basic.docx').grep(/\A#/)).to eq(['# Quarterly report', '# Summary', '## Details'])
    end

    it 'keeps a numbered heading\'s number, multi-level ones as 1.2' do
      expect(lines('lists.docx').grep(/\A#/))
        .to eq(['# 1. Introduction', '## 1.1 Scope', '## 1.2 Terms', '# 2. Results', '## 2.1 Findings'])
    end

    it 'labels list items as Word shows them, two spaces per level' do
      expect(lines('lists.docx')[3, 6]).to eq(
        ['1. First item', '2. Second item', '  a. Sub item a', '  b. Sub item b', '    iv. Deep item', '3. Third item']
      )
    end

    it 'writes bullets as -, nested bullets indented' do
      expect(lines('lists.docx')).to include('- Bullet one', '  - Bullet nested')
    end

    it 'restarts a list at a startOverride and keeps other formats (A), 5.)' do
      expect(lines('lists.docx')[12, 5])
        .to eq(['1. Again first', '2. Again second', 'A) Alpha', 'B) Beta', '5. From five'])
    end

    it 'counts a list per abstractNum: a startOverride restarts it, and the style\'s w:num continues that count' do
      expect(lines('list_restart.docx')).to eq(
        ['1. First list, one', '2. First list, two', '3. First list, three', 'Between the lists',
         '1. Second list, first', '2. Second list, second', '3. Second list, third', '4. Second list, fourth']
      )
    end

    it 'continues the count under a w:num that only redefines a level\'s format' do
      expect(lines('list_format_override.docx'))
        .to eq(['1. Decimal one', 'B. Letter two', 'C. Letter three', '4. Decimal four'])
    end

    it 'gives no label to a paragraph taken out of its list (numId 0)' do
      expect(lines('lists.docx').last).to eq('Numbering removed')
    end

    it 'numbers lists from a style (List Bullet, List Number in python-docx\'s template)' do
      expect(lines('basic.docx')).to include('- Apples', '- Pears', '1. Open the box', '2. Take the pears')
    end

    it 'writes merged table cells once, keeping columns aligned' do
      expect(lines('basic.docx')).to include("Region\t\tTotal", "North\tQ1\t42", "South\tQ2")
    end

    it 'keeps insertions, drops deletions, and puts footnotes after the body' do
      text = convert('tracked.docx')
      expect(text).to start_with("The price is twelve euros.\nWater boils at 100 degrees[^1].\n")
      expect(text).to end_with("Ice melts at 0 degrees[^2].\n\n[^1]: At sea level.\n[^2]: Under normal pressure.\n")
      expect(text).not_to include('ten', 'removed')
    end

    it 'reads text in hyperlinks, field results, content controls and text boxes (once), and notes after the body' do
      expect(convert('fields.docx')).to eq(<<~TEXT)
        # Fields and boxes
        See the site.
        Page 3
        Today 2026-03-31
        Inside a content control
        well-known
        Anchor
        Box text
        ### Outline heading
        ## Custom heading
        Outer\ta b c d

        After the blanks[^i].

        [^i]: An endnote.
      TEXT
    end

    it 'makes headings of outline levels and of styles based on headings' do
      expect(lines('fields.docx')).to include('### Outline heading', '## Custom heading')
    end

    it 'flattens a table inside a cell into that cell, and collapses empty paragraphs to one empty line' do
      expect(convert('fields.docx')).to include("Outer\ta b c d\n\nAfter the blanks")
    end

    it 'drops a deleted paragraph with its mark, as Word does when the change is accepted' do
      expect(convert('tracked.docx')).to eq(<<~TEXT)
        The price is twelve euros.
        Water boils at 100 degrees[^1].
        Ice melts at 0 degrees[^2].

        [^1]: At sea level.
        [^2]: Under normal pressure.
      TEXT
    end
  end

  describe 'Excel' do
    it 'writes a ## heading per sheet, hidden ones marked, and a row per line' do
      expect(convert('workbook.xlsx')).to eq(<<~TEXT)
        ## Summary
        Quarterly figures
        Item\tValue\tNote
        Date\t2026-03-31
        Timestamp\t2026-03-31 14:05:00
        Ratio\t0.1
        Share\t50%
        Done\tTRUE
        Count\t42\tunits

        ## Secret (hidden)
        hidden value
      TEXT
    end

    it 'reads dates the same in the 1900 and 1904 date systems' do
      expected = <<~TEXT
        ## Dates
        Merged title
        Day\t2026-03-31
        When\t2026-03-31 14:05:00
        Error\t#DIV/0!
        Share\t12.5%\tFALSE
      TEXT
      expect([convert('dates_1900.xlsx'), convert('dates_1904.xlsx')]).to eq([expected, expected])
    end

    it 'keeps cells in their columns and rows, quotes cells with tabs or line breaks, and marks very hidden sheets' do
      expect(convert('layout.xlsx')).to eq(<<~TEXT)
        ## Layout
        \t\tstarts at C

        "two
        lines"\tsay "hi"\t"a\tb"
        14:05:00\t36:00:00\t123456789.125\tcached

        last

        ## Vault (very hidden)
        locked away
      TEXT
    end

    it 'shows a merged range\'s value once, even when its other cells hold stale values' do
      expect(lines('dates_1904.xlsx')[1]).to eq('Merged title')
    end
  end

  describe 'PowerPoint' do
    it 'writes ## Slide N: Title, bullets, numbers, tables and speaker notes' do
      expect(convert('deck.pptx')).to eq(<<~TEXT)
        ## Slide 1: Quarterly review
        March 2026
        Notes:
        Welcome everyone.

        ## Slide 2: Highlights
        - Revenue up
          - Mostly exports
        - Costs down
        1. Hire two people
        2. Open the Lyon office
        Notes:
        Mention the exchange rate.
        Keep it short.

        ## Slide 3: Numbers
        Region\tQ1\tQ2
        North\t10\t12
        South\t7\t9

        ## Slide 4
        Thank you

        ## Slide 5: Backup (hidden)
      TEXT
    end

    it 'bullets as the layout says (none in Section Header and Comparison headings), numbers from startAt, groups' do
      expect(convert('layouts.pptx')).to eq(<<~TEXT)
        ## Slide 1: Part two
        Where we go next

        ## Slide 2: Options
        Option A
        - Cheap
        Option B
        - Fast

        ## Slide 3: Steps
        iii. Third
        iv. Fourth
        A) Alpha
        B) Beta
        Left box
        Right box
      TEXT
    end
  end

  describe 'which files it reads' do
    it 'answers nil for a file that is not an Office one' do
      expect(described_class.call(office_file('notes.txt', "plain\n", 'text/plain'))).to be_nil
    end

    it 'knows an Office file by its content type when the name says nothing' do
      docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
      file = office_file('upload', File.binread(fixture('search.docx')), docx)
      expect(described_class.call(file)).to eq("Meeting notes\nThe zanzibar project ships on Friday.\n")
    end

    it 'is local' do
      expect(described_class.local?).to be(true)
    end
  end

  describe 'unsafe and broken files' do
    def refusal(name)
      convert(name)
    rescue RubyLLM::FileStore::ConversionError => e
      e.message
    else
      raise "#{name} converted without an error"
    end

    it 'refuses a zip bomb (a 300 MB part) without inflating it' do
      expect(refusal('zip_bomb.docx'))
        .to match(%r{\Azip_bomb\.docx\b.*word/document\.xml expands to more than \d+ MB.*zip bomb})
    end

    it 'refuses a part that expands too many times its compressed size' do
      expect(refusal('ratio_bomb.xlsx')).to match(/ratio_bomb\.xlsx\b.*expands more than \d+x.*zip bomb/)
    end

    it 'reads a byte that is not UTF-8 as U+FFFD, with a note naming the part' do
      expect(convert('bad_byte.xlsx')).to eq(
        "## S\ncaf\uFFFD\t2\n\n[Note: part xl/worksheets/sheet1.xml of this file has 1 invalid UTF-8 sequence, " \
        "shown as \uFFFD.]\n"
      )
    end

    it 'does not expand an entity bomb: references to DTD entities are dropped' do
      expect(convert('entity_bomb.docx')).to eq("Before  after\n")
    end

    it 'refuses Word XML nested past its depth limit, without recursing' do
      expect(refusal('deep_nesting.docx'))
        .to match(%r{deep_nesting\.docx\b.*word/document\.xml nests elements more than \d+ deep})
    end

    it 'reads shapes grouped 50,000 deep in PowerPoint without recursing' do
      expect(convert('deep_groups.pptx')).to eq("## Slide 1\ndeep\n")
    end

    it 'says a password-protected file must be saved without its password' do
      expect(refusal('encrypted.docx')).to match(/encrypted\.docx\b.*password-protected.*without a password/)
    end

    it 'says an old binary file under a new name must be saved in the new format' do
      expect(refusal('old_format.xlsx')).to match(%r{old binary Office format.*save it as \.docx/\.xlsx/\.pptx})
    end

    it 'says a truncated file is corrupt' do
      expect(refusal('truncated.pptx')).to match(/truncated\.pptx\b.*corrupt or truncated/)
    end
  end
end
