module greenlight.invalid/warm

go 1.22
