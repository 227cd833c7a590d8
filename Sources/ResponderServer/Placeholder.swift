// placeholder: replaced as the target fills in
