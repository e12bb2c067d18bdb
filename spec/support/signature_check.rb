# frozen_string_literal: true

require 'rbs'
require_relative 'signature_parameters'

# The RBS signatures in sig/ checked against the loaded code: every class,
# module and constant they declare exists, every method they declare is
# defined where they say (instance or singleton), and its parameters take
# what the signature says (the keywords by name, the positional arguments
# by count). `rbs validate` checks only that the signatures are well formed;
# this is what catches a signature describing a method that is gone.
class SignatureCheck
  Problem = Struct.new(:file, :line, :message) do
    def to_s = "#{file}:#{line}: #{message}"
  end

  def initialize(sig_dir)
    @sig_dir = sig_dir
  end

  # The declarations of every file, as [file, declaration, its full name].
  def declarations
    Dir[File.join(@sig_dir, '**/*.rbs')].flat_map do |file|
      parse(File.read(file)).flat_map { |decl| walk(file, decl, nil) }
    end
  end

  # The problems of the declarations whose constant +loadable+ (a block
  # taking the full name) says to check.
  def problems
    declarations.flat_map do |file, decl, name|
      next [] unless yield(name)

      check(file, decl, name)
    end
  end

  private

  # The declarations of a file: rbs 2 (Ruby 3.1) parses to them, rbs 3
  # (Ruby 3.3) to [buffer, directives, declarations].
  def parse(text)
    parsed = RBS::Parser.parse_signature(text)
    parsed.first.is_a?(RBS::Buffer) ? parsed.last : parsed
  end

  def walk(file, decl, outer)
    return [] unless decl.is_a?(RBS::AST::Declarations::Class) || decl.is_a?(RBS::AST::Declarations::Module)

    name = [outer, decl.name.to_s.delete_prefix('::')].compact.join('::')
    inner = decl.members.flat_map { |member| walk(file, member, name) }
    [[file, decl, name], *inner]
  end

  def check(file, decl, name)
    mod = constant(name)
    return [problem(file, decl, "#{name} is not defined")] unless mod.is_a?(Module)

    decl.members.flat_map { |member| check_member(file, mod, name, member) }
  end

  def check_member(file, mod, name, member)
    case member
    when RBS::AST::Members::MethodDefinition then check_method(file, mod, name, member)
    when RBS::AST::Members::AttrReader, RBS::AST::Members::AttrAccessor, RBS::AST::Members::AttrWriter
      check_attribute(file, mod, name, member)
    when RBS::AST::Declarations::Constant
      constant_problems(file, mod, name, member)
    else []
    end
  end

  def constant_problems(file, mod, name, member)
    return [] if mod.const_defined?(member.name.to_s, false)

    [problem(file, member, "#{name}::#{member.name} is not defined")]
  end

  def check_method(file, mod, name, member)
    owners = case member.kind
             when :instance then [mod]
             when :singleton then [mod.singleton_class]
             else [mod, mod.singleton_class] # module_function: both
             end
    owners.flat_map do |owner|
      method = instance_method(owner, member.name)
      label = "#{name}#{owner.singleton_class? ? '.' : '#'}#{member.name}"
      next [problem(file, member, "#{label} is not defined")] unless method

      SignatureParameters.problems(method, member).map { |message| problem(file, member, "#{label}: #{message}") }
    end
  end

  def check_attribute(file, mod, name, member)
    owner = member.kind == :singleton ? mod.singleton_class : mod
    names = []
    names << member.name unless member.is_a?(RBS::AST::Members::AttrWriter)
    names << :"#{member.name}=" unless member.is_a?(RBS::AST::Members::AttrReader)
    names.filter_map do |method|
      problem(file, member, "#{name}##{method} is not defined") unless instance_method(owner, method)
    end
  end

  def instance_method(owner, name)
    return nil unless owner.method_defined?(name) || owner.private_method_defined?(name)

    owner.instance_method(name)
  end

  def constant(name)
    name.split('::').reduce(Object) do |scope, part|
      return nil unless scope.is_a?(Module) && scope.const_defined?(part, false)

      scope.const_get(part, false)
    end
  end

  def problem(file, node, message)
    Problem.new(file.delete_prefix("#{File.dirname(@sig_dir)}/"), node.location&.start_line, message)
  end
end
