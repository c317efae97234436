package store

import "github.com/bizplatform/api/shared/validate"

// The codes a shipping zone may use: the spec's lists, written out (the
// JP-01..JP-47 and PT-01..PT-18 ranges expanded) and deduplicated, in the
// order the spec lists them (the country codes are validate.CountryCodes,
// which contacts use too). The state list is one list for every country,
// as in the spec: a state code is checked against it, not against its
// country.

// stateCodes are the 588 allowed state codes.
var stateCodes = []string{
	"AL", "AK", "AS", "AZ", "AR", "AA", "AE", "AP", "CA", "CO", "CT", "DE", "DC", "FM", "FL", "GA",
	"GU", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MH", "MD", "MA", "MI", "MN", "MS",
	"MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "MP", "OH", "OK", "OR", "PW", "PA",
	"PR", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VI", "VA", "WA", "WV", "WI", "WY", "AB", "BC",
	"MB", "NB", "NL", "NT", "NS", "NU", "ON", "PE", "QC", "SK", "YT", "BA", "CC", "CH", "CB", "CN",
	"ER", "FO", "JY", "LP", "LR", "MZ", "NQ", "RN", "SA", "SJ", "SL", "SF", "SE", "TF", "TU", "ACT",
	"NSW", "QLD", "TAS", "VIC", "AC", "AM", "CE", "DF", "ES", "GO", "MG", "PB", "PI", "RJ", "RO", "RR",
	"RS", "SP", "TO", "AI", "AN", "AT", "BI", "LI", "LL", "ML", "RM", "TA", "VS", "AMA", "ANT", "ARA",
	"ATL", "BOL", "BOY", "CAL", "CAQ", "CAS", "CAU", "CES", "CHO", "CUN", "COR", "GUA", "GUV", "HUI", "LAG", "MAG",
	"MET", "NAR", "NSA", "PUT", "QUI", "RIS", "SAP", "SAN", "SUC", "TOL", "VAC", "VAU", "VID", "CR-A", "CR-C", "CR-G",
	"CR-H", "CR-L", "CR-P", "CR-SJ", "GT-16", "GT-15", "GT-04", "GT-20", "GT-02", "GT-05", "GT-01", "GT-13", "GT-18", "GT-21", "GT-22", "GT-17",
	"GT-09", "GT-14", "GT-11", "GT-03", "GT-12", "GT-06", "GT-07", "GT-10", "GT-08", "GT-19", "HK", "KL", "BR", "CG", "DN", "DD",
	"DL", "GJ", "HR", "HP", "JK", "JH", "KA", "LD", "PY", "TS", "TR", "UP", "UK", "WB", "CW", "D",
	"G", "KE", "KK", "LS", "LM", "LK", "LH", "OY", "SO", "WD", "WH", "WX", "WW", "AG", "AO", "AV",
	"BT", "BL", "BN", "BG", "BO", "BZ", "BS", "CL", "CI", "CZ", "CS", "CR", "KR", "EN", "FE", "FI",
	"FG", "FC", "FR", "GE", "GR", "IM", "IS", "AQ", "LT", "LE", "LC", "LO", "LU", "MC", "NA", "NO",
	"OG", "OT", "PD", "PV", "PG", "PU", "PC", "PT", "PN", "PZ", "PO", "RG", "RA", "RC", "RE", "SS",
	"SV", "SI", "SR", "TE", "TP", "TV", "UD", "VE", "VB", "VC", "VR", "VV", "JP-01", "JP-02", "JP-03", "JP-04",
	"JP-05", "JP-06", "JP-07", "JP-08", "JP-09", "JP-10", "JP-11", "JP-12", "JP-13", "JP-14", "JP-15", "JP-16", "JP-17", "JP-18", "JP-19", "JP-20",
	"JP-21", "JP-22", "JP-23", "JP-24", "JP-25", "JP-26", "JP-27", "JP-28", "JP-29", "JP-30", "JP-31", "JP-32", "JP-33", "JP-34", "JP-35", "JP-36",
	"JP-37", "JP-38", "JP-39", "JP-40", "JP-41", "JP-42", "JP-43", "JP-44", "JP-45", "JP-46", "JP-47", "JHR", "KDH", "KTN", "KUL", "LBN",
	"MLK", "NSN", "PHG", "PNG", "PRK", "PLS", "PJY", "SBH", "SWK", "SGR", "TRG", "AGU", "BCN", "BCS", "CAM", "CHP",
	"CHH", "CMX", "COA", "COL", "DUR", "GRO", "HID", "JAL", "MIC", "MOR", "MEX", "NAY", "NLE", "OAX", "PUE", "QUE",
	"ROO", "SLP", "SIN", "SON", "TAB", "TAM", "TLA", "VER", "YUC", "ZAC", "AUK", "BOP", "CAN", "CIT", "GIS", "HKB",
	"MWT", "MBH", "NTL", "OTA", "STL", "TKI", "WKO", "WGN", "WTC", "GB", "KP", "ANC", "APU", "ARE", "AYA", "CAJ",
	"CUS", "HUV", "HUC", "ICA", "JUN", "LAL", "LAM", "LIM", "LOR", "MDD", "MOQ", "PAS", "PIU", "PUN", "SAM", "TAC",
	"TUM", "UCA", "PH-ABR", "PH-AGN", "PH-AGS", "PH-AKL", "PH-ALB", "PH-ANT", "PH-APA", "PH-AUR", "PH-BAS", "PH-BAN", "PH-BTN", "PH-BTG", "PH-BEN", "PH-BIL",
	"PH-BOH", "PH-BUK", "PH-BUL", "PH-CAG", "PH-CAN", "PH-CAS", "PH-CAM", "PH-CAP", "PH-CAT", "PH-CAV", "PH-CEB", "PH-NCO", "PH-DAO", "PH-DAV", "PH-DAS", "PH-EAS",
	"PH-GUI", "PH-IFU", "PH-ILN", "PH-ILS", "PH-ILI", "PH-ISA", "PH-KAL", "PH-LUN", "PH-LAG", "PH-LAN", "PH-LAS", "PH-LEY", "PH-MAG", "PH-MAD", "PH-MAS", "PH-00",
	"PH-MSC", "PH-MSR", "PH-MOU", "PH-NEC", "PH-NER", "PH-NSA", "PH-NUE", "PH-NUV", "PH-MDC", "PH-MDR", "PH-PLW", "PH-PAM", "PH-PAN", "PH-QUE", "PH-QUI", "PH-RIZ",
	"PH-ROM", "PH-WSA", "PH-SAR", "PH-SIG", "PH-SOR", "PH-SCO", "PH-SLE", "PH-SUK", "PH-SLU", "PH-SUN", "PH-SUR", "PH-TAR", "PH-TAW", "PH-ZMB", "PH-ZAN", "PH-ZAS",
	"PH-ZSI", "PT-20", "PT-01", "PT-02", "PT-03", "PT-04", "PT-05", "PT-06", "PT-07", "PT-08", "PT-09", "PT-10", "PT-11", "PT-12", "PT-13", "PT-14",
	"PT-15", "PT-16", "PT-17", "PT-18", "PT-30", "BH", "BV", "B", "CJ", "CV", "DB", "DJ", "GL", "HD", "IF", "MM",
	"PH", "SM", "SB", "TM", "TL", "VL", "VN", "KR-26", "KR-43", "KR-44", "KR-27", "KR-30", "KR-42", "KR-29", "KR-47", "KR-41",
	"KR-48", "KR-28", "KR-49", "KR-45", "KR-46", "KR-50", "KR-11", "KR-31", "C", "A", "O", "PM", "BU", "S", "CU", "GI",
	"H", "HU", "J", "GC", "L", "M", "MU", "P", "SG", "T", "V", "ZA", "Z", "AJ", "DU", "FU",
	"RK", "SH", "UQ", "BFP", "ENG", "NIR", "SCT", "WLS", "FS", "FD", "RV", "TT",
}

var (
	isCountryCode = setOf(validate.CountryCodes)
	isStateCode   = setOf(stateCodes)
)

func setOf(codes []string) map[string]bool {
	set := make(map[string]bool, len(codes))
	for _, c := range codes {
		set[c] = true
	}
	return set
}
