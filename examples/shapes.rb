# shapes.rb - the Ruby program that shapes.c is written after, by hand, in
# the shape of the C that Spinel generates. `ruby shapes.rb` prints the same
# lines as the compiled shapes.c.

module Geo
  class Vec
    attr_reader :x, :y

    def initialize(x, y)
      @x = x
      @y = y
    end

    def +(o)
      Vec.new(@x + o.x, @y + o.y)
    end

    def -(o)
      Vec.new(@x - o.x, @y - o.y)
    end

    def *(k)
      Vec.new(@x * k, @y * k)
    end

    def cross(o)
      @x * o.y - @y * o.x
    end

    def zero?
      @x == 0 && @y == 0
    end

    def self.origin
      Vec.new(0, 0)
    end
  end
end

class BadShape < StandardError
end

class Circle
  def initialize(center, r)
    @center = center
    @r = r
  end

  def area
    3 * @r * @r
  end

  def grow!
    @r += 1
  end
end

class Rect
  def initialize(corner, w, h)
    @corner = corner
    @w = w
    @h = h
  end

  def area
    @w * @h
  end

  def grow!
    @w += 1
    @h += 1
  end
end

class Triangle
  def initialize(a, b, c)
    @a = a
    @b = b
    @c = c
  end

  def area
    (@b - @a).cross(@c - @a).abs / 2
  end

  def grow!
    @c = @c + Geo::Vec.new(1, 3)
  end
end

$rescues = 0

def fib(n)
  n < 2 ? n : fib(n - 1) + fib(n - 2)
end

def make_shape(i)
  c = Geo::Vec.new(i % 17, i % 11) * 2 + Geo::Vec.origin
  case i % 3
  when 0 then Circle.new(c, i % 7)
  when 1 then Rect.new(c, i % 5, i % 9)
  else Triangle.new(c, Geo::Vec.new(i % 13, 1), Geo::Vec.new(2, i % 6))
  end
end

def build(n)
  shapes = []
  n.times { |i| shapes << make_shape(i) }
  shapes
end

def verify_area(a)
  raise BadShape, "empty shape" if a == 0
  a
end

def validate(shape)
  verify_area(shape.area)
end

def check(shape)
  validate(shape)
end

def total_area(shapes)
  sum = 0
  shapes.each do |s|
    attempts = 0
    begin
      sum += check(s)
    rescue BadShape
      $rescues += 1
      attempts += 1
      s.grow!
      retry if attempts < 3
    end
  end
  sum
end

def probe(shape, limit, i)
  throw :found, i if shape.area > limit
end

def scan(shapes, limit)
  shapes.each_with_index { |s, i| probe(s, limit, i) }
end

def find_big(shapes, limit)
  catch(:found) do
    scan(shapes, limit)
    -1
  end
end

def walk(n)
  v = Geo::Vec.origin
  hits = 0
  n.times do |i|
    v = v + Geo::Vec.new(i % 3 - 1, i % 5 - 2) * 2
    hits += 1 if v.zero?
  end
  v.x * 31 + v.y + hits
end

def label(r, found)
  "r" + r.to_s + (":" + found.to_s)
end

rounds = 1500
total = 0
found = 0
walked = 0
labels = 0
rounds.times do |r|
  shapes = build(2000 + r % 40)
  total += total_area(shapes)
  found += find_big(shapes, 100 + r * 10)
  walked += walk(4000 + r)
  labels += label(r, found).length
end
puts "areas: #{total}"
puts "rescues: #{$rescues}"
puts "found: #{found}"
puts "walk: #{walked}"
puts "labels: #{labels}"
puts "fib(37): #{fib(37)}"
