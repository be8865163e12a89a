bool w
int x 0 9
int y 0 9
imp w lin 1 x + 1 y <= 4
imp ~w lin -1 x <= -8
lin 1 y = 3
min x
