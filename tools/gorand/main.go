// Command gorand prints reference sequences of Go's math/rand for drasim's
// C re-implementation (sim/util/gorand.c). Each line is one call on a
// rand.New(rand.NewSource(seed)) generator: "seed S" starts a new generator,
// "OP ARG = VALUE" records the result (lists space-separated). Regenerate
// the committed copy with Go 1.19 (the FGD artifact's version):
//
//	go run tools/gorand/main.go > tests/gorand/sequences.txt
package main

import (
	"fmt"
	"math/rand"
	"strings"
)

func list(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " ")
}

func main() {
	seeds := []int64{42, 43, 51, 0, 1, -7, 2147483647, 1 << 40, -1 << 62}
	for _, seed := range seeds {
		r := rand.New(rand.NewSource(seed))
		fmt.Printf("seed %d\n", seed)
		for i := 0; i < 3; i++ {
			fmt.Printf("int63 0 = %d\n", r.Int63())
			fmt.Printf("int31 0 = %d\n", r.Int31())
			fmt.Printf("int 0 = %d\n", r.Int())
			fmt.Printf("uint32 0 = %d\n", r.Uint32())
			fmt.Printf("float64 0 = %.17g\n", r.Float64())
		}
		for _, n := range []int{1, 2, 3, 7, 8, 100, 1000, 8152, 10866, 1 << 30, 1<<31 - 1, 1 << 31, 3 << 40, 1<<62 + 1} {
			fmt.Printf("intn %d = %d\n", n, r.Intn(n))
		}
		for _, n := range []int32{1, 5, 64, 1000, 1<<31 - 1} {
			fmt.Printf("int31n %d = %d\n", n, r.Int31n(n))
		}
		for _, n := range []int64{1, 6, 1 << 40, 1<<62 + 3, 1<<63 - 1} {
			fmt.Printf("int63n %d = %d\n", n, r.Int63n(n))
		}
		for _, n := range []int{0, 1, 2, 10, 1213} {
			fmt.Printf("perm %d = %s\n", n, list(r.Perm(n)))
		}
		for _, n := range []int{0, 1, 2, 10, 300} {
			a := make([]int, n)
			for i := range a {
				a[i] = i
			}
			r.Shuffle(n, func(i, j int) { a[i], a[j] = a[j], a[i] })
			fmt.Printf("shuffle %d = %s\n", n, list(a))
		}
	}
}
