# A small Ruby program for the real-Spinel test.
module Geo
  class Vec
    def initialize(x, y)
      @x = x
      @y = y
    end

    def dot(o)
      @x * o.x + @y * o.y
    end

    def x
      @x
    end

    def y
      @y
    end
  end
end

def fib(n)
  if n < 2
    n
  else
    fib(n - 1) + fib(n - 2)
  end
end

total = 0
i = 0
while i < 12
  total += fib(32)
  i += 1
end
v = Geo::Vec.new(3, 4)
puts total
puts v.dot(v)
