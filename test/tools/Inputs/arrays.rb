def words(i)
  ["a", "b", i.to_s]
end

kept = []
i = 0
while i < 300000
  kept.push(words(i).join(","))
  kept = [] if kept.length > 1000
  i += 1
end
puts kept.length
