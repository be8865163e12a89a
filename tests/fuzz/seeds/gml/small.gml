graph [
  directed 1
  node [
    id 0
    label "0"
    parameter 0
  ]
  node [
    id 1
    label "1"
    parameter 12
  ]
  edge [
    source 0
    target 1
    name "0"
    parameter 14974
  ]
]
