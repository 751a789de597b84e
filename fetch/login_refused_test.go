package fetch_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ftpurl/ftpurl/fetch"
)

// TestRefusedLoginNamesTheCommandRefused: a 530 to PASS is an *Error
// whose Command is "PASS xxxxx", never the password; a 530 to USER
// names USER (RFC 959 §5.4: USER's 530, or 331 then PASS's 530; issue
// 33: "a refused login names PASS when PASS was refused").
func TestRefusedLoginNamesTheCommandRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		sc   script
		want string
	}{
		{"PASS", script{"PASS": say("530 Login incorrect.")}, "PASS xxxxx"},
		{"USER", script{"USER": say("530 This FTP server is anonymous only.")}, "USER alice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.sc)
			_, err := (&fetch.Client{}).Open(context.Background(), "ftp://alice:hunter2@"+f.addr+"/f")
			var fe *fetch.Error
			if !errors.As(err, &fe) || fe.Op != "login" || fe.Code != 530 || fe.Command != tc.want {
				t.Fatalf("Open = %v; want a login error of %q, 530", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the message holds the password: %v", err)
			}
		})
	}
}
