# a small example
int x 0 10
int y 0 10
bool b
lin 3 x + -2 y <= 4
diff y x <= 3     # y - x <= 3
pb 1 b + 1 ~b >= 1
imp b lin 1 x + 1 y >= 7
mod 1 4 x@0 y@0 x@1
clause b
min x
