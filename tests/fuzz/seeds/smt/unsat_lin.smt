int x 0 3
int y 0 3
lin 1 x + 1 y >= 7
