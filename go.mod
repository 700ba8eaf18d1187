module github.com/kalah-solver/kalah

go 1.26
