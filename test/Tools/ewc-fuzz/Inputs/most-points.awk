# Reads ewc-fuzz --print's output and says whether the extents of every
# program's shape line ("# program I: --dim m=4 --batch 2x3"), a 0 counting
# as 1, multiply to at most `bound` (awk -v bound=N).
/^# program / {
  points = 1
  for (i = 4; i < NF; i++) {
    if ($i == "--dim") {
      split($(i + 1), pair, "=")
      points *= pair[2] > 1 ? pair[2] : 1
    } else if ($i == "--batch" && $(i + 1) != "\"\"") {
      n = split($(i + 1), extents, "x")
      for (j = 1; j <= n; j++)
        points *= extents[j] > 1 ? extents[j] : 1
    }
  }
  if (points > most)
    most = points
}
END {
  print (most <= bound ? "within the bound" : "beyond the bound") ": at most " most " points"
}
