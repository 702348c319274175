def make_counter(step)
  proc { |x| x + step }
end

def spin(f, n)
  i = 0
  acc = 0
  while i < n
    acc = f.call(acc) % 1000003
    i += 1
  end
  acc
end

counter = make_counter(7)
scale = 3
grow = ->(x) { (x * scale + 1) % 1000003 }
puts spin(counter, 3000000)
t = 0
k = 0
while k < 3000000
  t = grow.call(t)
  k += 1
end
puts t
worker = Fiber.new do
  s = 0
  5.times do
    n = 0
    while n < 300000
      s = (s * 31 + n) % 1000003
      n += 1
    end
    Fiber.yield s
  end
  0
end
6.times { puts worker.resume }
