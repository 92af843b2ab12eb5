// k6 as `npm run setup` builds it: stock k6 (go.k6.io/k6/v2, the pinned release) with harness's output added,
// harness-checkpoint (checkpoint.go), and its token reader, k6/x/harness-token (token.go). This is what
// `xk6 build --with` generates, written by hand because the module proxy here serves no xk6 that knows k6's /v2
// module path (README "k6").
package main

import "go.k6.io/k6/v2/cmd"

func main() {
	cmd.Execute()
}
