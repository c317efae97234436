package brandboards

import (
	"regexp"
	"strconv"
	"sync"
)

// The notations a color is given in. Only their form is checked, not that
// the four notations denote the same color. Compiled on first use, not at
// every cold start.
var (
	hexPattern  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`) })
	hexaPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#[0-9a-fA-F]{8}$`) })
	rgbPattern  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$`)
	})
	rgbaPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^rgba\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d*\.?\d+)\s*\)$`)
	})
)

// Violation texts, after the field path.
const (
	hexRule  = "must be a hex color: #rgb or #rrggbb (for example #ff5733)"
	hexaRule = "must be a hex color with alpha: #rrggbbaa (for example #ff5733ff)"
	rgbRule  = "must be rgb(r, g, b) with r, g and b from 0 to 255 (for example rgb(255, 87, 51))"
	rgbaRule = "must be rgba(r, g, b, a) with r, g and b from 0 to 255 and a from 0 to 1 (for example rgba(255, 87, 51, 1))"
)

func isHex(s string) bool  { return hexPattern().MatchString(s) }
func isHexa(s string) bool { return hexaPattern().MatchString(s) }

func isRGB(s string) bool {
	m := rgbPattern().FindStringSubmatch(s)
	return m != nil && channels(m[1:4])
}

func isRGBA(s string) bool {
	m := rgbaPattern().FindStringSubmatch(s)
	if m == nil || !channels(m[1:4]) {
		return false
	}
	a, err := strconv.ParseFloat(m[4], 64)
	return err == nil && a >= 0 && a <= 1
}

// channels reports whether every value is an integer from 0 to 255.
func channels(vals []string) bool {
	for _, v := range vals {
		n, err := strconv.Atoi(v)
		if err != nil || n > 255 {
			return false
		}
	}
	return true
}
