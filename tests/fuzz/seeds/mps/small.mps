NAME T
OBJSENSE
    MAX
ROWS
 N obj
 L c1
 E c2
COLUMNS
    M1 'MARKER' 'INTORG'
    x obj 1 c1 2
    M2 'MARKER' 'INTEND'
    y obj 1 c2 1
RHS
    rhs c1 4 c2 1
RANGES
    r c2 2
BOUNDS
 UP b x 3
 FR b y
 BV b x
ENDATA
