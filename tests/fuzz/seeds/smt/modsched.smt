int s0 0 20
int s1 0 20
int s2 0 20
diff s0 s1 <= -2
diff s1 s2 <= -1
diff s2 s0 <= 6
mod 1 3 s0@0 s1@0 s2@0 s2@1
min s2
