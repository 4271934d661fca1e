// Throughput baseline for bench/gotemplate.ts: executes the same templates on the same data with
// Go's text/template and sprig (Argo CD's func map minus its own additions), and prints
// {"executions": N, "nanoseconds": T, "outputBytes": B} as JSON.
// Built in GOPATH mode from Debian's golang-1.19-go and golang-github-masterminds-sprig-dev.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/template"
	"time"

	"github.com/Masterminds/sprig"
)

type input struct {
	Templates  []string                 `json:"templates"`
	Params     []map[string]interface{} `json:"params"`
	Iterations int                      `json:"iterations"`
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		panic(err)
	}
	fm := sprig.TxtFuncMap()
	delete(fm, "env")
	delete(fm, "expandenv")
	delete(fm, "getHostByName")
	var tmpls []*template.Template
	for _, text := range in.Templates {
		t, err := template.New("").Option("missingkey=error").Funcs(fm).Parse(text)
		if err != nil {
			panic(err)
		}
		tmpls = append(tmpls, t)
	}
	executions := 0
	total := 0
	start := time.Now()
	for it := 0; it < in.Iterations; it++ {
		for _, p := range in.Params {
			for _, t := range tmpls {
				var sb strings.Builder
				if err := t.Execute(&sb, p); err != nil {
					panic(err)
				}
				total += sb.Len()
				executions++
			}
		}
	}
	elapsed := time.Since(start)
	out, _ := json.Marshal(map[string]int64{"executions": int64(executions), "nanoseconds": elapsed.Nanoseconds(), "outputBytes": int64(total)})
	fmt.Println(string(out))
}
