// The k6/x/harness-token module: the token request of SPEC.md §5, with its answer read as sent and no further than
// a cap. k6's own http.post decodes a `Content-Encoding: br`/`gzip` answer whole before a script can look at its
// size (lib/netext/httpext/compression.go), so 1.7 KB of brotli took k6 to 6 GB; no request param avoids the decode
// except responseType 'none', which gives no body. This sends through the VU's own transport (k6's dialer, TLS
// settings, hosts and blocked IPs; compression off, redirects never followed), asks for `identity`, reads no
// encoded answer at all, and reads an unencoded one to the cap plus one byte.
package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.k6.io/k6/v2/js/modules"
)

func init() {
	modules.Register("k6/x/harness-token", new(tokenModule))
}

type tokenModule struct{}

type tokenInstance struct{ vu modules.VU }

func (*tokenModule) NewModuleInstance(vu modules.VU) modules.Instance { return &tokenInstance{vu: vu} }

func (t *tokenInstance) Exports() modules.Exports {
	return modules.Exports{Named: map[string]any{"post": t.post}}
}

// post sends `form` to `target` as application/x-www-form-urlencoded and answers {status, body, unread, failed,
// agent}: status 0 when no whole answer came, failed then "timed out" or "no answer" (refused, reset, closed, or no
// request could be made); unread is "encoded" or "oversized" when the body was not read, body then empty. Nothing the target does makes it throw, and nothing the target sent but the
// status and a capped body reaches the script.
func (t *tokenInstance) post(target string, form map[string]string, timeoutMs int64, maxBytes int64) map[string]any {
	state := t.vu.State()
	if state == nil {
		panic(t.vu.Runtime().NewGoError(errors.New("harness-token: post is for setup() and VU code, not the init code")))
	}
	agent := state.Options.UserAgent.String
	answer := map[string]any{"status": 0, "body": "", "unread": "", "failed": "no answer", "agent": agent}
	values := url.Values{}
	for name, value := range form {
		values.Set(name, value)
	}
	ctx, cancel := context.WithTimeout(t.vu.Context(), time.Duration(timeoutMs)*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(values.Encode()))
	if err != nil {
		return answer
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept-Encoding", "identity")
	if agent != "" {
		req.Header.Set("User-Agent", agent)
	}
	res, err := state.Transport.RoundTrip(req)
	if err != nil {
		answer["failed"] = failure(ctx)
		return answer
	}
	// Closing an unread body drops the connection: nothing more of an encoded or endless answer is received.
	defer res.Body.Close()
	answer["status"] = res.StatusCode
	answer["failed"] = ""
	if encoding := strings.TrimSpace(res.Header.Get("Content-Encoding")); encoding != "" && !strings.EqualFold(encoding, "identity") {
		answer["unread"] = "encoded"
		return answer
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, maxBytes+1))
	switch {
	case int64(len(body)) > maxBytes:
		answer["unread"] = "oversized"
	case err != nil:
		answer["status"] = 0
		answer["failed"] = failure(ctx)
	default:
		answer["body"] = string(body)
	}
	return answer
}

// failure names why no answer came, never quoting the error: its text may hold the URL, which a profile may fill from
// a secret variable.
func failure(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "timed out"
	}
	return "no answer"
}
