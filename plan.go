package ftpurl

// STUB: owned by the Login/Plan work (issue 3); replace entirely.

// A Method is how a Plan changes directory.
type Method int

const (
	MultiCWD  Method = iota // the default: one CWD per directory, as curl's default
	SingleCWD               // one CWD with the directories joined
	NoCWD                   // no CWD; the whole path goes in RETR, LIST or NLST
)

// A PlanOption changes how Plan builds a Plan.
type PlanOption func(*planConfig)

type planConfig struct {
	method   Method
	absolute bool
}

// WithMethod selects how the Plan changes directory.
func WithMethod(m Method) PlanOption { return func(c *planConfig) { c.method = m } }

// WithAbsolutePaths makes the path start at the root.
func WithAbsolutePaths() PlanOption { return func(c *planConfig) { c.absolute = true } }

// An Action is what a Plan does once it has reached the directory.
type Action int

const (
	_              Action = iota
	Retrieve              // RETR Name (4c)
	List                  // LIST: a listing of the directory reached (4a)
	NameList              // NLST [Name]: typecode d (4b; RFC 1738 §3.2.2)
	RetrieveOrList        // Name may be a file or a directory (4d)
)

func (a Action) String() string { return "" }

// A Plan is what an FTP client sends after login.
type Plan struct {
	Host   string   // argument of HOST (2011 draft §3.2.1); IPv6 in brackets
	Dirs   []string // CWD arguments in order
	Type   Typecode // argument of TYPE; 0 when none is sent (only a, e, i, u send TYPE)
	Action Action
	Name   string // argument of RETR, LIST or NLST; "" for none
}

// Commands renders the lines a client sends after login.
func (p *Plan) Commands() []string { return nil }

// Login returns the USER and PASS arguments.
func (u *URL) Login() (user, password string, ok bool) { return "", "", false }

// Plan returns the commands' arguments.
func (u *URL) Plan(opts ...PlanOption) (*Plan, error) { return nil, nil }
