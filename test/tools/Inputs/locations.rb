# standin: locations
module Geo
  class Vec
    attr_reader :x

    def initialize(x)
      @x = x
    end

    def zero?
      @x == 0
    end
  end
end

class Shape
  def area(n)
    s = 0
    n.times { |i| s += i.to_s.length }
    s
  end
end

def make_adder(k)
  proc { |x| x + k }
end

puts Shape.new.area(3_000_000) + (Geo::Vec.new(0).zero? ? 1 : 0) + make_adder(1).call(2)
