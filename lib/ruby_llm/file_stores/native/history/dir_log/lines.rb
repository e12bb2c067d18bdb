# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module History
        class DirLog < Log
          # A version as one line of the journal (JSON), and back: short keys,
          # a Symbol's by written with a leading colon (a tool's name has none).
          module Lines
            module_function

            # +offset+: where the version's bytes are in the pack (nil: not there).
            def encode(record, offset = nil)
              line = { 'i' => record.id, 'o' => record.owner, 'p' => record.path, 'c' => record.change.to_s,
                       'd' => record.digest, 'n' => record.byte_size, 't' => record.content_type,
                       'a' => record.at, 'b' => record.by.is_a?(Symbol) ? ":#{record.by}" : record.by }
              line['base'] = true if record.baseline
              line['nk'] = true if record.unkept
              line['x'] = offset if offset
              line
            end

            def decode(line)
              by = line['b']
              by = by.delete_prefix(':').to_sym if by&.start_with?(':')
              Record.of(id: line['i'], owner: line['o'], path: line['p'], change: line['c'].to_sym, digest: line['d'],
                        byte_size: line['n'], content_type: line['t'], at: line['a'].to_f, by:,
                        baseline: line['base'] == true, unkept: line['nk'] == true)
            end
          end
        end
      end
    end
  end
end
