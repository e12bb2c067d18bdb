# frozen_string_literal: true

# Whether a method's parameters take what its RBS signature passes (see
# SignatureCheck): the keywords by name, the positional arguments by count.
module SignatureParameters
  module_function

  # What the signature's overloads take that the method does not, and what
  # the method requires that no overload gives. A method taking (*) or (...)
  # forwards its arguments, so only its name is checked.
  def problems(method, member)
    params = method.parameters
    return [] if params.any? { |kind, _| kind == :rest } && params.any? { |kind, _| kind == :keyrest }

    functions = method_types(member).map(&:type).grep(RBS::Types::Function)
    return [] if functions.empty?

    functions.flat_map { |function| overload_problems(params, function) } |
      required_keyword_problems(params, functions)
  end

  # A method's overloads: rbs 3 (Ruby 3.3) wraps each in an Overload.
  def method_types(member)
    member.respond_to?(:overloads) ? member.overloads.map(&:method_type) : member.types
  end

  def overload_problems(params, function)
    # A method without keyword parameters (a native one, or one reading an
    # options Hash) takes the keywords as one Hash argument at the end.
    return positional_problems(params, function, hash: hash_argument(function)) unless keywords?(params)

    accepted = params.select { |kind, _| %i[key keyreq].include?(kind) }.map(&:last)
    keyrest = params.any? { |kind, _| kind == :keyrest }
    given = function.required_keywords.keys + function.optional_keywords.keys
    unknown = keyrest ? [] : given - accepted
    problems = unknown.map { |key| "the signature passes keyword #{key}:, which the method does not take" }
    problems + positional_problems(params, function)
  end

  def keywords?(params) = params.any? { |kind, _| %i[key keyreq keyrest].include?(kind) }

  # :required or :optional when +function+'s keywords make a Hash argument.
  def hash_argument(function)
    return :required if function.required_keywords.any?

    :optional if function.optional_keywords.any? || function.rest_keywords
  end

  def positional_problems(params, function, hash: nil)
    takes = positional_range(params)
    given = given_range(function, hash)
    problems = []
    problems << "the signature allows #{given.min} positional arguments; the method needs #{takes.min}" \
      if given.min < takes.min
    problems << "the signature allows #{given.max} positional arguments; the method takes at most #{takes.max}" \
      if given.max > takes.max
    problems
  end

  # The least and most positional arguments the method takes, as [min, max].
  def positional_range(params)
    kinds = params.map(&:first)
    required = kinds.count(:req)
    [required, kinds.include?(:rest) ? Float::INFINITY : required + kinds.count(:opt)]
  end

  # The least and most positional arguments +function+ passes, as [min, max].
  def given_range(function, hash)
    least = function.required_positionals.size + function.trailing_positionals.size
    most = function.rest_positionals ? Float::INFINITY : least + function.optional_positionals.size
    [least + (hash == :required ? 1 : 0), most + (hash ? 1 : 0)]
  end

  def required_keyword_problems(params, functions)
    required = params.select { |kind, _| kind == :keyreq }.map(&:last)
    required.reject { |key| functions.all? { |f| f.required_keywords.key?(key) } }
            .map { |key| "the method requires keyword #{key}:, which the signature does not require" }
  end
end
