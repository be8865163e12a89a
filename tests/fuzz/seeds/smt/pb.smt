bool a
bool b
bool c
pb 1 a + 1 b + 1 c >= 2
pb 1 a + 1 ~b <= 0
clause ~c
