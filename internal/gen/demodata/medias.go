package main

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/bizplatform/api/internal/gen"
)

// The demo media library: demoFld<Account><n> (folders) and
// demoFil<Account><n> (files). A file's url names the stored object by id (a
// rename leaves it valid); paths are not stored: the API derives them from
// the folder names.
//
// Alpha's tree (folder "Clinic Photos" holds 30 photos: more than one page of
// the default limit, 20):
//
//	Marketing/                      Patient Forms/       Clinic Photos/ (30)   Staff/
//	  Brochures/                      3 forms                                    Training/
//	    2025/                                                                      2 files
//	      spring-offer.pdf                                                       rota.xlsx
//	    implants-guide.pdf, teeth-whitening.pdf
//	  Social Posts/  3 images
//	logo.png, price-list-2025.pdf, welcome-video.mp4   (at the root)

type mediaEntry struct {
	ID        string `json:"_id"`
	AltID     string `json:"altId"`
	AltType   string `json:"altType"`
	Name      string `json:"name"`
	ParentID  string `json:"parentId,omitempty"`
	URL       string `json:"url,omitempty"`
	Type      string `json:"type"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
}

// mediaLibrary adds one account's entries, each some minutes after the last.
type mediaLibrary struct {
	acct           demoAccount
	t              time.Time
	folders, files int
	entries        *[]mediaEntry
}

// upload is when an entry was made: minutes after the previous one (60 by
// default), and hours later when it was last edited.
type upload struct{ minutes, edited int }

func (l *mediaLibrary) folder(name, parent string) string {
	l.folders++
	id := l.acct.recordID("Fld", l.folders)
	l.add(mediaEntry{ID: id, Name: name, ParentID: parent, Type: "folder"}, upload{minutes: 60})
	return id
}

func (l *mediaLibrary) file(name, parent string, u upload) {
	l.files++
	id := l.acct.recordID("Fil", l.files)
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))
	url := fmt.Sprintf("%s/%s/media/%s.%s", mediaURL, l.acct.id, id, ext)
	l.add(mediaEntry{ID: id, Name: name, ParentID: parent, URL: url, Type: "file"}, u)
}

func (l *mediaLibrary) add(e mediaEntry, u upload) {
	l.t = l.t.Add(time.Duration(u.minutes) * time.Minute)
	e.AltID, e.AltType = l.acct.id, "account"
	e.CreatedAt = timestamp(l.t)
	e.UpdatedAt = timestamp(l.t.Add(time.Duration(u.edited) * time.Hour))
	*l.entries = append(*l.entries, e)
}

func medias() (string, error) {
	var entries []mediaEntry
	hourly := upload{minutes: 60}
	edited := func(hours int) upload { return upload{minutes: 60, edited: hours} }

	a := &mediaLibrary{acct: alpha, t: utc(2025, time.February, 3, 9, 0), entries: &entries}
	marketing := a.folder("Marketing", "")
	forms := a.folder("Patient Forms", "")
	photos := a.folder("Clinic Photos", "")
	staff := a.folder("Staff", "")
	brochures := a.folder("Brochures", marketing)
	social := a.folder("Social Posts", marketing)
	y2025 := a.folder("2025", brochures)
	training := a.folder("Training", staff)

	a.file("logo.png", "", edited(240))
	a.file("price-list-2025.pdf", "", edited(72))
	a.file("welcome-video.mp4", "", hourly)
	a.file("teeth-whitening.pdf", brochures, hourly)
	a.file("implants-guide.pdf", brochures, edited(30))
	a.file("spring-offer.pdf", y2025, hourly)
	a.file("whitening-post.png", social, hourly)
	a.file("team-photo.jpg", social, hourly)
	a.file("open-day-banner.png", social, hourly)
	a.file("new-patient-form.pdf", forms, hourly)
	a.file("medical-history.pdf", forms, hourly)
	a.file("consent-form.docx", forms, hourly)
	a.file("hygiene-protocol.pdf", training, hourly)
	a.file("fire-safety.pdf", training, hourly)
	a.file("rota.xlsx", staff, edited(5))
	rooms := []string{"reception", "waiting-room", "treatment-room", "x-ray-room", "sterilisation", "staff-room"}
	for i := range 30 {
		// Every third photo was uploaded in the same minute as the previous
		// one (a batch upload), so sorting by date exercises the tie-break on id.
		u := upload{minutes: 7}
		if i%3 == 2 {
			u.minutes = 0
		}
		a.file(fmt.Sprintf("%s-%02d.jpg", rooms[i%len(rooms)], i/len(rooms)+1), photos, u)
	}

	b := &mediaLibrary{acct: bravo, t: utc(2025, time.February, 10, 10, 0), entries: &entries}
	exercises := b.folder("Exercise Sheets", "")
	b.file("logo.png", "", hourly)
	b.file("knee-rehab.pdf", exercises, hourly)
	b.file("shoulder-mobility.pdf", exercises, hourly)

	c := &mediaLibrary{acct: charlie, t: utc(2025, time.February, 12, 8, 0), entries: &entries}
	c.file("roof-inspection-checklist.pdf", "", hourly)

	return gen.JSONFile(map[string]any{"files": entries})
}
