# frozen_string_literal: true

# Guarantee: edit_file matches old_text against the text as read_file shows
# it, on every kind of store. CRLF and LF are one line break, and an invalid
# UTF-8 byte is the U+FFFD it is shown as: occurrences the model cannot tell
# apart are counted together (ambiguous, or all replaced with replace_all),
# never one edited silently, and new line breaks follow the file's style.
RSpec.describe 'Guarantee: edit_file sees line endings and invalid bytes as the model does', :native do
  on_every_store do
    def read_and_edit(content, **edit)
      store.write('f.txt', content, content_type: 'text/plain')
      call_tool('read_file', path: 'f.txt')
      call_tool('edit_file', path: 'f.txt', **edit)
    end

    it 'writes the line breaks a new_text adds in a CRLF file as CRLF' do
      expect(read_and_edit("a\r\nb\r\n", old_text: 'a', new_text: "a\nadded")).to eq('Edited f.txt (1 replacement).')
      expect(store.read('f.txt')).to eq("a\r\nadded\r\nb\r\n")
    end

    it 'replaces every line with replace_all whatever its line ending, and counts them' do
      expect(read_and_edit("x\r\nx\nx\r\n", old_text: "x\n", new_text: "y\n", replace_all: true))
        .to eq('Edited f.txt (3 replacements).')
      expect(store.read('f.txt')).to eq("y\r\ny\r\ny\r\n")
    end

    it 'calls two lines that differ only in their line ending ambiguous' do
      expect(read_and_edit("total: 5\r\nitems\ntotal: 5\n", old_text: "total: 5\n", new_text: "total: 6\n"))
        .to eq(error: 'Edit 1: old_text appears 2 times in f.txt; add more context or set replace_all')
      expect(store.read('f.txt')).to eq("total: 5\r\nitems\ntotal: 5\n")
    end

    it 'calls an invalid byte and a real U+FFFD ambiguous, as read_file shows both as U+FFFD' do
      content = "price: \u{FFFD}5\nprice: ".b + "\xFF5\n".b
      expect(read_and_edit(content, old_text: "price: \u{FFFD}5", new_text: 'price: 6'))
        .to eq(error: 'Edit 1: old_text appears 2 times in f.txt; add more context or set replace_all')
      expect(store.read('f.txt').b).to eq(content)
    end
  end
end
