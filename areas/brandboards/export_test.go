package brandboards

import "context"

// StoredDefaults returns each board's default flag as stored, not derived
// from the pointer: what the protocol keeps in step.
func (s *Boards) StoredDefaults(ctx context.Context, accountID string) (map[string]bool, error) {
	items, err := s.boards.List(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(items))
	for _, it := range items {
		out[it.ID] = it.Default
	}
	return out, nil
}
