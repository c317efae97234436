package dryrun_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/dryrun"
)

func TestOnlyTheDryRunEventAsksForADryRun(t *testing.T) {
	for _, tc := range []struct {
		name  string
		event string
		want  bool
	}{
		{"the dry run's event", string(dryrun.Event), true},
		{"a stream batch", `{"Records":[{"eventName":"INSERT","dynamodb":{"Keys":{"PK":{"S":"EVENTS#a"}}}}]}`, false},
		{"the schedule's event", `{"source":"aws.events","detail-type":"Scheduled Event","detail":{}}`, false},
		{"the member turned off", `{"bizplatformDryRun":false}`, false},
		{"the member's name inside a string", `{"note":"bizplatformDryRun"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, dryrun.Is([]byte(tc.event)))
		})
	}
}
