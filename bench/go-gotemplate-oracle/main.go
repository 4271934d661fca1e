// Oracle for the differential test of fleetplan's Go template engine (bench/gotemplate-fuzz.ts):
// reads a JSON array of {template, data, missingkey} from stdin, executes each with Go's
// text/template and sprig (without env, expandenv, getHostByName) plus Argo CD's toYaml and
// normalize, data decoded as Argo CD decodes it (numbers float64), and writes a JSON array of
// {ok, output, error}. Built in GOPATH mode from Debian's golang-1.19-go and
// golang-github-masterminds-sprig-dev (which brings gopkg.in/yaml.v2).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	"gopkg.in/yaml.v2"
)

type testCase struct {
	Template   string          `json:"template"`
	Data       json.RawMessage `json:"data"`
	MissingKey string          `json:"missingkey"`
}

type result struct {
	OK     bool   `json:"ok"`
	Output string `json:"output"`
	Error  string `json:"error"`
}

// toYAML is sigs.k8s.io/yaml.Marshal (JSON, then go-yaml v2) with Argo CD's trailing-newline trim.
func toYAML(v interface{}) (string, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var obj interface{}
	if err := yaml.Unmarshal(j, &obj); err != nil {
		return "", err
	}
	d, err := yaml.Marshal(obj)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(d), "\n"), nil
}

var invalidDNSNameChars = regexp.MustCompile("[^-a-z0-9.]")

// sanitizeName is Argo CD's normalize.
func sanitizeName(name string) string {
	name = strings.ToLower(name)
	name = invalidDNSNameChars.ReplaceAllString(name, "-")
	if len(name) > 253 {
		name = name[:253]
	}
	return strings.Trim(name, "-.")
}

func run(c testCase, fm template.FuncMap) (r result) {
	defer func() {
		if p := recover(); p != nil {
			r = result{OK: false, Error: fmt.Sprintf("panic: %v", p)}
		}
	}()
	var data interface{}
	if len(c.Data) > 0 {
		if err := json.Unmarshal(c.Data, &data); err != nil {
			return result{Error: "bad data: " + err.Error()}
		}
	}
	t := template.New("base").Funcs(fm)
	if c.MissingKey != "" {
		t = t.Option("missingkey=" + c.MissingKey)
	}
	t, err := t.Parse(c.Template)
	if err != nil {
		return result{Error: err.Error()}
	}
	var sb strings.Builder
	if err := t.Execute(&sb, data); err != nil {
		return result{Error: err.Error()}
	}
	return result{OK: true, Output: sb.String()}
}

func main() {
	var cases []testCase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	fm := sprig.TxtFuncMap()
	delete(fm, "env")
	delete(fm, "expandenv")
	delete(fm, "getHostByName")
	fm["toYaml"] = toYAML
	fm["normalize"] = sanitizeName
	out := make([]result, len(cases))
	for i, c := range cases {
		out[i] = run(c, fm)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
