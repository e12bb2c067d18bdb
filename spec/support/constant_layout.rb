# frozen_string_literal: true

require 'ripper'

# Reads a lib file as Zeitwerk would: the constant its path names (with the
# gem's inflections), and the constants its code defines, without loading it.
# A file keeps to the layout when it defines its constant, everything else it
# defines lives inside that constant, and the namespaces around it only wrap
# (no methods or other code added to them from this file).
class ConstantLayout
  INFLECTIONS = {
    'ruby_llm' => 'RubyLLM', 'ocr' => 'OCR', 'ruby_llm_1_16' => 'RubyLLM116', 'ruby_llm_2' => 'RubyLLM2',
    'version' => 'VERSION'
  }.freeze

  attr_reader :expected, :defined, :problems

  def initialize(lib, file)
    relative = file.delete_prefix("#{lib}/").delete_suffix('.rb')
    @expected = relative.split('/').map { |name| camelize(name) }.join('::')
    @defined = []
    @problems = []
    walk(Ripper.sexp(File.read(file)) || raise("#{file} does not parse"), [], top: true)
    problems << "does not define #{expected}" unless defined.include?(expected)
  end

  private

  def camelize(name) = INFLECTIONS.fetch(name) { name.split('_').map(&:capitalize).join }

  def walk(node, scope, top: false)
    statements(node).each do |statement|
      case statement.first
      when :module, :class then definition(statement, scope)
      when :assign, :opassign then assignment(statement, scope, top:)
      when :unless_mod, :if_mod then walk([:program, [statement[2]]], scope, top:)
      else outside(statement, scope) unless top
      end
    end
  end

  def statements(node)
    Array(node[1]).reject { |s| s.is_a?(Array) && s.first == :void_stmt }
  end

  def definition(statement, scope)
    name = [*scope, const_name(statement[1])].join('::')
    record(name)
    walk(statement.first == :module ? statement[2] : statement[3], name.split('::'))
  end

  def assignment(statement, scope, top:)
    target = statement[1]
    return outside(statement, scope) unless top || %i[var_field const_path_field].include?(target.first)
    return if target.first == :var_field && target[1]&.first != :@const

    record([*scope, const_name(target)].join('::'))
  end

  def const_name(ref)
    case ref.first
    when :const_ref, :var_field, :var_ref, :top_const_ref then ref[1][1]
    when :const_path_ref, :const_path_field then "#{const_name(ref[1])}::#{ref[2][1]}"
    when :@const then ref[1]
    else raise "unexpected constant node #{ref.first}"
    end
  end

  def record(name)
    defined << name
    return if name == expected || name.start_with?("#{expected}::") || expected.start_with?("#{name}::")

    problems << "defines #{name}, which is not #{expected} or inside it"
  end

  # Code in a namespace around the file's constant adds to that namespace
  # from the wrong file.
  def outside(statement, scope)
    name = scope.join('::')
    return if name == expected || name.start_with?("#{expected}::")

    problems << "adds #{statement.first} code to #{name}, which is not #{expected}"
  end
end
