# spinel-prof-symbols.rb - the .rb location of each C function Spinel
# generates for a Ruby program, as a spinelprof symbol map.
#
#   ruby spinel-prof-symbols.rb APP.rb -o OUT.json [--symbols USER.json]
#
# Reads APP.rb with Ruby's own parser (Ripper) and writes a JSON array of
# records {"c": C symbol, "file": APP.rb as given, "line": N}: location-only
# entries, so the profile keeps the names the plugin's rules give. With
# --symbols, the user's map wins entry by entry: its records come first and
# unchanged, except that a record without "file"/"line" gets this file's.
# The C names follow Spinel's code generator; docs/spinel.md lists the rules.
#
# Exit status: 0 written; 1 APP.rb cannot be read or parsed, or USER.json
# cannot be read (one line on stderr says which); 2 bad usage.

require 'ripper'
require 'json'

# Ripper's s-expressions, with the line of `->` added to each lambda
# (Ripper gives a lambda node no position of its own).
class SpinelRipper < Ripper::SexpBuilderPP
  def on_tlambda(token)
    (@lambda_lines ||= []) << lineno
    super
  end

  def on_lambda(params, body)
    [:lambda, params, body, (@lambda_lines || []).pop]
  end
end

# The C spelling of a Ruby method name (Spinel's sanitize_name).
OPERATORS = {
  '<=>' => '_cmp', '<=' => '_le', '>=' => '_ge', '<<' => '_lshift',
  '>>' => '_rshift', '<' => '_lt', '>' => '_gt', '+' => '_plus',
  '-' => '_minus', '*' => '_mul', '/' => '_div', '==' => '_eq_eq',
  '!=' => '_neq', '[]' => '_aref', '[]=' => '_aset'
}.freeze

def c_method(name)
  OPERATORS.fetch(name) { name.gsub('?', '_p').gsub('!', '_bang').gsub('=', '_eq') }
end

# Collects [C symbol, line] pairs while walking the tree.
class SpinelSymbols
  attr_reader :entries

  def initialize
    @entries = []          # [c, line], in the order found
    @blocks = { class: [], top: [], main: [] } # [word, line] per section
    @modules = {}          # module path => [[method, line], ...]
  end

  def add(c_name, line)
    @entries << [c_name, line]
  end

  # Spinel numbers procs from 1, lambdas and fiber bodies from 0, in the
  # order it compiles them: methods of classes and modules, then top-level
  # methods, then the top-level code.
  def number_blocks
    counters = { 'proc' => 1, 'lambda' => 0, 'fiber' => 0 }
    prefixes = { 'proc' => '_sp_proc_fn_', 'lambda' => '_lam_', 'fiber' => '_fiber_body_' }
    %i[class top main].each do |section|
      @blocks[section].each do |word, line|
        add(prefixes[word] + counters[word].to_s, line)
        counters[word] += 1
      end
    end
  end

  def walk(node, scope, section)
    return unless node.is_a?(Array)
    return node.each { |child| walk(child, scope, section) } unless node[0].is_a?(Symbol)

    case node[0]
    when :class, :module then walk_namespace(node, scope)
    when :sclass then walk_children(node, scope + [:singleton], section)
    when :def then walk_def(node, scope, node[1], scope.last == :singleton)
    when :defs then walk_def(node, scope, node[3], true)
    when :command, :command_call, :fcall, :method_add_arg then walk_call(node, scope, section)
    when :method_add_block then walk_block_call(node, scope, section)
    when :lambda
      @blocks[section] << ['lambda', node[3]] if node[3]
      walk_children(node, scope, section)
    else walk_children(node, scope, section)
    end
  end

  private

  def walk_children(node, scope, section)
    node[1..].each { |child| walk(child, scope, section) }
  end

  def const_path(ref)
    case ref[0]
    when :const_ref, :var_ref, :top_const_ref then [ref[1][1]]
    when :const_path_ref then const_path(ref[1]) + [ref[2][1]]
    else []
    end
  end

  def const_line(ref)
    ref[0] == :const_path_ref ? ref[2][2][0] : ref[1][2][0]
  end

  def class_names(scope)
    scope.reject { |s| s == :singleton }
  end

  def walk_namespace(node, scope)
    inner = class_names(scope) + const_path(node[1])
    @modules[inner.join('_')] ||= [] if node[0] == :module
    # The allocating constructor (sp_Foo_new) is at the class line.
    add("sp_#{inner.join('_')}_new", const_line(node[1])) if node[0] == :class
    walk(node.last, inner, :class)
  end

  def walk_def(node, scope, name_token, singleton)
    name, line = name_token[1], name_token[2][0]
    owner = class_names(scope)
    c_name = if owner.empty?
               'sp_' + c_method(name)
             else
               "sp_#{owner.join('_')}_#{singleton ? 'cls_' : ''}#{c_method(name)}"
             end
    add(c_name, line)
    @modules[owner.join('_')] << [name, line] if !singleton && @modules.key?(owner.join('_'))
    walk(node.last, scope, owner.empty? ? :top : :class)
  end

  def call_name(node)
    case node[0]
    when :command, :fcall then node[1]
    when :method_add_arg then call_name(node[1])
    when :call, :command_call then node[3].is_a?(Array) ? node[3] : nil
    end
  end

  def walk_call(node, scope, section)
    token = call_name(node)
    owner = class_names(scope)
    if token && node[0] == :command && !owner.empty?
      case token[1]
      when 'attr_accessor', 'attr_reader', 'attr_writer' then add_attrs(node, owner, token[1])
      when 'include' then include_module(node, owner)
      end
    end
    walk_children(node, scope, section)
  end

  def symbol_args(node)
    args = node[2].is_a?(Array) && node[2][0] == :args_add_block ? node[2][1] : []
    args.filter_map do |arg|
      next unless arg[0] == :symbol_literal && arg[1][0] == :symbol

      arg[1][1]
    end
  end

  def add_attrs(node, owner, kind)
    symbol_args(node).each do |token|
      base = "sp_#{owner.join('_')}_#{token[1]}"
      add(base, token[2][0]) unless kind == 'attr_writer'
      add(base + '_eq', token[2][0]) unless kind == 'attr_reader'
    end
  end

  # Spinel copies an included module's methods into the class.
  def include_module(node, owner)
    args = node[2].is_a?(Array) && node[2][0] == :args_add_block ? node[2][1] : []
    args.each do |arg|
      methods = @modules[const_path(arg).join('_')] || []
      methods.each { |name, line| add("sp_#{owner.join('_')}_#{c_method(name)}", line) }
    end
  end

  def walk_block_call(node, scope, section)
    token = call_name(node[1])
    receiver = node[1][0] == :call ? const_path(node[1][1]) : []
    word = if token && token[1] == 'proc' && receiver.empty? then 'proc'
           elsif token && token[1] == 'new' && receiver == ['Proc'] then 'proc'
           elsif token && token[1] == 'new' && receiver == ['Fiber'] then 'fiber'
           end
    @blocks[section] << [word, token[2][0]] if word
    walk_children(node, scope, section)
  end
end

def fail_with(message, status = 1)
  warn message
  exit status
end

# The user's map as records with "c" (every shape SymbolMap.cpp reads).
def user_records(path)
  root = JSON.parse(File.read(path))
  root = root['symbols'] if root.is_a?(Hash) && root.size == 1 && root['symbols'].is_a?(Enumerable)
  return root.map { |c, v| v.is_a?(Hash) ? v.merge('c' => c) : { 'c' => c, 'ruby' => v } } if root.is_a?(Hash)

  root.map do |rec|
    key = %w[c cname symbol].find { |k| rec.key?(k) }
    key ? rec.reject { |k, _| k == key }.merge('c' => rec[key]) : rec
  end
rescue StandardError => e
  fail_with("#{path}: cannot read the symbol map: #{e.message.lines.first.strip}")
end

def parse_args(argv)
  options = {}
  until argv.empty?
    arg = argv.shift
    case arg
    when '-o' then options[:out] = argv.shift
    when '--symbols' then options[:user] = argv.shift
    else
      fail_with("spinel-prof-symbols: more than one program given", 2) if options[:app]
      options[:app] = arg
    end
  end
  fail_with('usage: spinel-prof-symbols.rb APP.rb -o OUT.json [--symbols USER.json]', 2) unless options[:app] && options[:out]
  options
end

def symbols_of(app)
  source = begin
    File.read(app)
  rescue SystemCallError => e
    fail_with("#{app}: cannot read: #{e.message}")
  end
  tree = SpinelRipper.new(source, app).parse
  unless tree
    begin
      RubyVM::InstructionSequence.compile(source, app)
      fail_with("#{app}: Ruby #{RUBY_VERSION}'s parser rejects it")
    rescue SyntaxError => e
      fail_with("#{app}: Ruby #{RUBY_VERSION}'s parser rejects it: #{e.message.lines.first.strip}")
    end
  end
  symbols = SpinelSymbols.new
  symbols.walk(tree, [], :main)
  symbols.number_blocks
  symbols.add('main', 1)
  symbols.entries
end

options = parse_args(ARGV.dup)
ours = {}
symbols_of(options[:app]).each { |c, line| ours[c] ||= { 'c' => c, 'file' => options[:app], 'line' => line } }
records = options[:user] ? user_records(options[:user]) : []
records.each do |rec|
  mine = ours.delete(rec['c'])
  rec['file'] ||= mine['file'] if mine
  rec['line'] ||= mine['line'] if mine
end
File.write(options[:out], JSON.pretty_generate(records + ours.values) + "\n")
