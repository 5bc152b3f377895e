// ManualText: the prose sections of shopsh(1), as roff source (already escaped).
//
// The commands and options are not written here: ManualCommand.swift generates them from the
// command tree. Keep this text to what the code does; `make docs` regenerates man/shopsh.1.

enum ManualText {
    /// Option groups of the binary that every data command repeats; described once, by name.
    static let sharedGroupTitles = ["Output defaults for every command", "Listing defaults for every command"]
    static let sharedGroupNames = [
        "Output defaults for every command": "output options",
        "Listing defaults for every command": "listing options",
    ]

    static let description = lines(#"""
        The shop lives in one SQLite file, or in a PostgreSQL database that a team of
        operators shares (\fB\-\-store postgres://\fR\fIuser\fR\fB@\fR\fIhost\fR\fB:\fR\fIport\fR\fB/\fR\fIdb\fR).
        The first run without \fB\-\-store\fR or \fBSHOPSH_STORE\fR creates the default store
        with the demo shop (194 products, 208 users and their baskets, ECB exchange rates and
        the ISO 4217 currency list).
        .PP
        Each plugin owns one noun (\fBproducts\fR, \fBbasket\fR, ...) and its subcommands; the
        same commands work at the prompt, after \fB\-c\fR, in a file given with \fB\-f\fR or
        \fBsource\fR, and on standard input.
        Messages go to standard error, data to standard output.
        .PP
        At the prompt, Tab completes commands, subcommands, options, option values and live
        values from the store (user names and emails, product ids and SKUs, order ids).
        Up recalls history; Ctrl\-C clears the line or stops a running command; Ctrl\-D or
        \fBexit\fR leaves.
        A trailing \fB|\fR \fIcommand\fR sends a command's output through the system shell
        (for example \fB| jq .\fR); \fB>\fR \fIfile\fR and \fB>>\fR \fIfile\fR write or append it
        to a file. Quoted \fB|\fR and \fB>\fR are literal.
        Long table output on a terminal goes through the pager (see \fBPAGER\fR).
        .PP
        \fBwatch\fR [\fB\-n\fR \fIseconds\fR] \fIcommand\fR runs a command again every few seconds
        (2 by default), as \fBpsql\fR's \fB\ewatch\fR does: the screen is redrawn each round under
        a header with the command and the time in UTC, never through the pager, until Ctrl\-C,
        which returns to the prompt. In a batch it needs \fB\-\-count\fR \fIn\fR and prints only
        the command's outputs, one after another. A failing round stops it.
        .PP
        \fBhistory\fR [\fIn\fR] lists the store's history; a command typed with a leading space is
        not recorded. \fBhistory export\fR \fIfile\fR writes it as a batch file (mode 0600) that
        \fBshopsh \-\-dry\-run \-f\fR \fIfile\fR replays, leaving out \fBhistory\fR, \fBexit\fR,
        commands that failed when typed, and any command carrying a secret (the value of an
        option whose name contains password, passwd, secret or token, or a URL's password).
        """#)

    static let commandsIntro = lines(#"""
        \fIuser\fR is a user's id, username or email; \fIproduct\fR is a product's id or SKU.
        An ambiguous value is an error that lists the candidates.
        After \fBuse\fR \fIuser\fR, commands that take a \fIuser\fR may leave it out.
        \fBhelp\fR \fIcommand\fR [\fIsubcommand\fR] or \fIcommand\fR \fB\-\-help\fR shows the
        same help at the prompt.
        Commands that show money take \fB\-\-currency\fR \fIcode\fR (or \fBset currency\fR
        \fIcode\fR): amounts convert through ECB euro rates, round once to the target
        currency's minor unit, and the output says which rate date it used.
        """#)

    static let builtinsIntro = lines(#"""
        The shell's own commands.
        """#)

    /// Everything after COMMANDS.
    static func sections(sharedOptions: [(title: String, names: [String])]) -> [String] {
        var result = lines(#"""
            .SH "OUTPUT FORMATS"
            Every command that prints data takes \fB\-o\fR, \fB\-\-format\fR \fIformat\fR.
            The default is \fBtable\fR when standard output is a terminal and \fBtsv\fR otherwise;
            \fBSHOPSH_FORMAT\fR or \fBset format\fR change it.
            Keys and column names are snake_case and stable.
            Money is an exact decimal number beside a \fBcurrency\fR key
            (\fB"price":9.99,"currency":"USD"\fR).
            Empty results are normal output (\fB[]\fR, or the header alone).
            .TP
            .B table
            For people: each view shows the columns an operator needs, with short headers
            (\fBqty\fR, \fBdisc %\fR, \fBunit price\fR) and timestamps as dates, and never grows
            wider than the terminal (its width, or \fBCOLUMNS\fR when set).
            \fBproducts list\fR: id, sku, title, price, currency, stock, and category, brand,
            disc %, rating while they fit.
            \fBbasket show\fR: product, title, qty, unit price, total (after the discount),
            currency, and sku and disc % while they fit; the totals follow on standard error.
            \fBorders list\fR: id, customer, status, gross (while it fits), total (after
            discounts), currency, placed (the date).
            \fBusers list\fR: id, username, email, role, status, and the first and last names
            while both fit.
            \fBfavorites list\fR: product, sku, title, price, currency, added, and category and
            stock while they fit.
            When the columns do not fit, free text (titles, descriptions, names) is cut first with
            an ellipsis, then labels (categories, brands, emails); ids, SKUs, quantities, money,
            codes and dates are never cut.
            When even that does not fit (a narrow pane), each row prints as \fIfield value\fR
            lines under \fB\-[ RECORD\fR \fIn\fR \fB]\fR, as \fBpsql\fR's \fB\ex auto\fR does.
            \fB\-\-wide\fR shows every column, uncut; \fB\-\-fields\fR picks exactly.
            Numbers are right\-aligned, widths are display widths (wide characters, emoji,
            combining marks), control characters in data are escaped.
            Colour only on a terminal and never with \fBNO_COLOR\fR: a bold header, dim currency codes.
            A single record (\fBshow\fR) prints as key/value lines.
            Machine formats (\fBjson\fR, \fBndjson\fR, \fBcsv\fR, \fBtsv\fR) are not affected
            by any of this: they print the command's fields, whole, whatever the terminal.
            .TP
            .B json
            An array for listings, an object for a single record.
            .TP
            .B ndjson
            One JSON object a line, streamed.
            .TP
            .B csv
            RFC 4180 with a header row; cells a spreadsheet would run as formulas are neutralised
            with a leading \fB\(aq\fR (plain negative numbers stay numbers).
            .TP
            .B tsv
            A header row, then one row a line, never quoted; tabs, line feeds, carriage returns
            and backslashes in cells are written as \fB\et\fR, \fB\en\fR, \fB\er\fR and \fB\e\e\fR.
            .PP
            Errors are one line on standard error (\fBerror:\fR ... with a hint), or a JSON object
            there when the format is \fBjson\fR or \fBndjson\fR.
            Large listings stream: memory stays flat whatever the row count.
            """#)
        for group in sharedOptions where !group.names.isEmpty {
            let name = sharedGroupNames[group.title] ?? group.title
            result.append(".PP")
            result.append("The " + Roff.escape(name) + " are "
                          + group.names.map(Roff.bold).joined(separator: ", ")
                          + "; given before the command (see \\fBOPTIONS\\fR) they are defaults for every command.")
        }
        result += lines(#"""
            .SH "BATCH MODE"
            \fBshopsh \-c\fR \fIcommand\fR (repeatable), \fBshopsh \-f\fR \fIfile\fR (repeatable,
            run in the order given), and commands on standard input when it is not a terminal run
            without a prompt. \fBsource\fR \fIfile\fR runs a file from the prompt or from another
            file. In every case:
            .IP \(bu 2
            \fB#\fR starts a comment line; blank lines are skipped.
            .IP \(bu 2
            A line ending in \fB\e\fR continues on the next line.
            .IP \(bu 2
            The first failing command stops the run with
            \fIfile\fR\fB:\fR\fIline\fR\fB: error:\fR ... on standard error
            (\fB<stdin>:\fR\fIline\fR for standard input, \fB\-c\fR for a command) and exit status 1.
            .IP \(bu 2
            With \fB\-\-continue\-on\-error\fR every command runs; the exit status is still 1 when
            any failed (2 when the worst was a usage error).
            .IP \(bu 2
            Each command is its own transaction: a failing command changes nothing, the ones
            before it stay. With \fB\-\-atomic\fR the whole run is one transaction: every change is
            kept only if every command succeeded. With \fB\-\-dry\-run\fR the commands run and print
            as usual (each sees the changes of the ones before) and every change is undone at the
            end. On SQLite both hold the store's write lock for the whole run (other shells wait up
            to 5 s); on PostgreSQL the run is one server transaction, a savepoint per command (a
            basket add, set or remove, a favourite's add, remove or toggle and a stock change are one
            statement each and need none: should the server raise an error in one, the run's
            transaction has ended and the later commands are refused).
            .IP \(bu 2
            Commands on standard input run as soon as each is complete, so a pipe can feed a
            running shell.
            .IP \(bu 2
            Global output options (\fB\-o\fR json, \fB\-\-fields\fR, ...) given before \fB\-c\fR
            apply to every command of the run.
            .SH "VARIABLES, ALIASES AND CONDITIONS"
            .TP
            \fBlet\fR \fIname\fR \fB=\fR \fIwords\fR
            Sets a variable (or \fB\-v\fR \fIname\fR\fB=\fR\fIvalue\fR on the command line);
            \fBlet\fR lists them, \fBunlet\fR \fIname\fR removes one. \fB$\fR\fIname\fR and
            \fB${\fR\fIname\fR\fB}\fR expand in later lines, in a word or inside double quotes,
            never inside single quotes; \fB${\fR\fIname\fR\fB:\-\fR\fItext\fR\fB}\fR gives a
            default. A variable that is not set is an error naming it. An expansion is never split
            into words. \fB$(\fR\fIcommand\fR\fB)\fR runs one shopsh command and gives its output
            without the trailing newlines; a list is one value a line. A value holds at most 1 MiB.
            .TP
            \fBalias\fR \fIname\fR \fB\(aq\fR\fIcommand\fR\fB;\fR \fIcommand\fR\fB\(aq\fR
            Defines an alias; \fBalias\fR lists them, \fBunalias\fR removes one, \fBhelp\fR shows
            them. \fB$1\fR ... \fB$9\fR are the call's arguments, \fB$@\fR all of them, each one word;
            a body that reads none and runs one command gets the arguments added. An alias never
            hides a command, and one that would call itself is refused.
            .TP
            \fBif\fR \fIcommand\fR | \fBif\fR \fIvalue op value\fR ... [\fBelse\fR ...] \fBend\fR
            In command files, on standard input and at the prompt: the branch follows the command's
            success (\fBif !\fR inverts it), or the comparison (\fB==\fR, \fB!=\fR, \fB<\fR,
            \fB<=\fR, \fB>\fR, \fB>=\fR: numbers exactly, other text only with \fB==\fR and
            \fB!=\fR). \fBfor\fR \fIname\fR \fBin\fR \fIwords\fR ... \fBend\fR walks each line
            of each word. Blocks nest; a file whose blocks do not balance is refused before anything
            runs. \fBexit\fR \fIn\fR ends the run with status \fIn\fR; \fBecho\fR prints words
            (\fB\-\-stderr\fR: on standard error). \fB\-\-atomic\fR and \fB\-\-dry\-run\fR keep
            their meaning: a branch not taken changes nothing.
            .TP
            \fBedit\fR
            At the prompt: opens the last command in \fB$VISUAL\fR or \fB$EDITOR\fR (else
            \fBvi\fR) and runs what is saved; \fBC\-x C\-e\fR does the same for the line being typed.
            \fBset timing on\fR prints each command's time on standard error.
            .SH "OPERATORS, ROLES AND THE AUDIT LOG"
            The operator is the PostgreSQL role that logged in (\fBsession_user\fR), or on SQLite
            the OS login that runs shopsh. \fBwhoami\fR and \fBset\fR show the operator, their
            role and whether the session is read\-only.
            .TP
            .B viewer
            Reads everything; customers' emails and phones are masked (\fBe***@x.dummyjson.com\fR).
            Every session of a viewer is read\-only.
            .TP
            .B support
            A viewer who may also change baskets and favourites, check out, set or cancel orders, and return and refund.
            .TP
            .B admin
            Everything: products, users, passwords, currency imports.
            .PP
            A command the role may not run is refused in one line that names the role it needs
            (exit status 1 in a batch), before anything changes.
            On PostgreSQL the roles are the group roles \fBshopsh_viewer\fR, \fBshopsh_support\fR and
            \fBshopsh_admin\fR, created by \fBshopsh init\fR and by \fBshopsh roles setup\fR for an
            existing database; a DBA grants one to each login role (\fBGRANT shopsh_support TO alice\fR).
            The server enforces them with grants and masking views, also for \fBpsql\fR, and holds
            the shop's rules against every login but the store's owner: an order comes into being
            only by checking out a customer's basket (\fBshopsh_checkout\fR, which prices it at the
            catalogue's prices and takes the stock) and moves only along its status machine
            (\fBshopsh_set_order_status\fR); nobody but the owner writes orders directly.
            On SQLite the file's permissions are the only boundary: whoever may write the file is an
            admin, whoever may only read it a viewer.
            .PP
            \fB\-\-read\-only\fR opens a session that refuses every write: the SQLite file is opened
            read\-only, so the engine itself refuses writes; on PostgreSQL every transaction is read
            only, which also lets a session run against a hot standby.
            .PP
            Every change writes one audit row in the same transaction: the time (UTC), the operator,
            their role, the command as typed (secrets as \fB***\fR), the entity (basket, product,
            user, order, favourite, currency) and its id, the action, and the changed fields before
            and after. A failing command, a failed \fB\-\-atomic\fR run and a \fB\-\-dry\-run\fR
            leave no rows. \fBaudit list\fR filters them (\fB\-\-operator\fR, \fB\-\-entity\fR,
            \fB\-\-id\fR, \fB\-\-since\fR, \fB\-\-until\fR) and \fBaudit show\fR \fIid\fR shows one, in every
            output format (\fBbefore\fR and \fBafter\fR are JSON objects).
            Nobody but the store's owner can alter the log. On PostgreSQL the server writes every row
            itself, for shopsh's changes and for any other client's (those record
            \fB(outside shopsh: psql)\fR), and no operator may insert one; on SQLite triggers refuse to
            update or delete its rows, and changes made with other programs are not recorded.
            .SH "EXTERNAL PLUGINS"
            An executable named \fBshopsh\-\fR\fIname\fR becomes the command \fIname\fR. It is looked for in
            the folders of \fBSHOPSH_PLUGIN_PATH\fR (colon\-separated), then
            \fI$XDG_DATA_HOME/shopsh/plugins\fR, then \fBPATH\fR; built\-in commands always win.
            \fBshopsh\-\fR\fIname\fR \fB\-\-shopsh\-describe\fR prints its commands, arguments and options
            (cached by path, size and mtime); \fIname command\fR ... runs it in its own process group with
            \fBSHOPSH_PROTOCOL\fR, \fBSHOPSH_STORE\fR, \fBSHOPSH_USER\fR, \fBSHOPSH_OPERATOR\fR and
            \fBSHOPSH_BIN\fR set, and renders the NDJSON rows it prints with the usual \fB\-o\fR,
            \fB\-\-fields\fR and \fB\-\-no\-header\fR. Tab completes its arguments from the store;
            \fBhelp\fR \fIname\fR shows its description; \fBplugins\fR lists every plugin with its
            version, path and status. A plugin that fails, crashes, hangs (Ctrl\-C stops its process
            group) or prints something else than rows costs one error line, \fIname\fR\fB:\fR \fImessage\fR.
            A plugin runs with the operator's own rights, so shopsh keeps its promises only for
            commands whose description says \fB"writes": false\fR (the \fBread_only\fR column of
            \fBplugins\fR): in a read\-only session and in an \fB\-\-atomic\fR or \fB\-\-dry\-run\fR run any
            other plugin command is refused before it starts, and there a plugin may run at most
            \fBSHOPSH_PLUGIN_TIMEOUT\fR seconds, as the run holds its locks meanwhile.
            The contract is \fIplugins/PROTOCOL.md\fR in the source tree; examples are in
            \fIplugins/external\fR.
            .SH "EXIT STATUS"
            .TP
            .B 0
            Success.
            .TP
            .B 1
            A command failed (not found, refused, store error, ...).
            .TP
            .B 2
            Usage error: unknown command, subcommand or option, or a bad value.
            .SH ENVIRONMENT
            .TP
            .B SHOPSH_STORE
            The store when \fB\-\-store\fR is not given: a file path, \fBsqlite:\fR\fIpath\fR, or a
            PostgreSQL connection string as \fBpsql\fR(1) reads it: a \fBpostgres://\fR
            (\fBpostgresql://\fR) URL, with several hosts separated by commas
            (\fIhost\fR\fB:\fR\fIport\fR\fB,\fR\fIhost\fR\fB:\fR\fIport\fR),
            \fIkeyword\fR\fB=\fR\fIvalue\fR settings (\fBhost=h1,h2 port=5432,5433 dbname=shop\fR),
            \fBservice=\fR\fIname\fR, or \fBpostgres:\fR alone for what the environment below says.
            Hosts are tried in order (shuffled with \fBload_balance_hosts=random\fR) until one is
            what \fBtarget_session_attrs\fR asks for (\fBany\fR, \fBread\-write\fR, \fBread\-only\fR,
            \fBprimary\fR, \fBstandby\fR, \fBprefer\-standby\fR); a \fB\-\-read\-only\fR session
            prefers a standby unless the string asks for \fBprimary\fR or \fBany\fR. \fBsslmode\fR is
            libpq's: \fBrequire\fR encrypts without checking the certificate unless a root
            certificate is there, \fBverify\-ca\fR and \fBverify\-full\fR check it
            (\fBsslrootcert\fR, default \fI~/.postgresql/root.crt\fR, or \fBsystem\fR).
            When the connection is lost (a failover, a restart), a command that had not committed
            waits up to \fB\-\-reconnect\-timeout\fR seconds for a server the string allows and runs
            again, with one line saying where (\fBreconnected to h2:5433 (primary)\fR). One whose
            connection broke while it committed is looked up by the receipt it kept in its own
            transaction: kept, a note says so and it counts as done; not kept, a line says
            \fBnot kept \(em running it again\fR and it runs again, once. A batch goes on either way.
            .TP
            .B PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGPASSFILE
            And \fBPGSSLMODE\fR, \fBPGSSLROOTCERT\fR, \fBPGCONNECT_TIMEOUT\fR,
            \fBPGTARGETSESSIONATTRS\fR, \fBPGLOADBALANCEHOSTS\fR, \fBPGAPPNAME\fR, \fBPGSERVICE\fR,
            \fBPGSERVICEFILE\fR.
            As for \fBpsql\fR(1): what the connection string leaves out (the string wins, then its
            service's section in \fI~/.pg_service.conf\fR or \fBPGSERVICEFILE\fR, then these).
            The password file (\fI~/.pgpass\fR) is read per host and only when its mode is 0600. A
            password is never printed: connection strings are shown with \fB***\fR.
            .TP
            .B SHOPSH_RC
            The start-up file when \fB\-\-rc\fR is not given.
            .TP
            .B VISUAL, EDITOR
            The editor of \fBedit\fR and \fBC\-x C\-e\fR (default \fBvi\fR).
            .TP
            .B SHOPSH_FORMAT
            The default output format (\fBtable\fR, \fBjson\fR, \fBndjson\fR, \fBcsv\fR or \fBtsv\fR).
            .TP
            .B SHOPSH_PLUGIN_PATH
            Folders (colon\-separated) searched first for external plugins.
            .TP
            .B SHOPSH_PLUGIN_TIMEOUT
            How many seconds an external plugin may run in an \fB\-\-atomic\fR or \fB\-\-dry\-run\fR run
            (default 60); then its process group is killed and the command fails.
            .TP
            .B NO_COLOR
            When set and not empty, no colour with \fB\-\-color auto\fR.
            .TP
            .B PAGER
            The pager for long table output on a terminal (default \fBless \-FRX\fR); empty or
            \fBcat\fR turns paging off. Never used when standard output is not a terminal.
            .TP
            .B XDG_DATA_HOME
            Where the default store lives (default \fI~/.local/share\fR).
            .TP
            .B XDG_CONFIG_HOME
            Where the start-up file lives (default \fI~/.config\fR).
            .TP
            .B XDG_STATE_HOME
            Where history files live (default \fI~/.local/state\fR).
            .TP
            .B HOME
            The base of the defaults above.
            .TP
            .B COLUMNS
            The terminal width for tables and wrapped notes; when set it wins over the width the
            terminal reports.
            .SH FILES
            .TP
            .I $XDG_DATA_HOME/shopsh/shop.sqlite
            The default store (SQLite, WAL mode; the \fBsqlite3\fR(1) CLI can read it), created with
            the demo shop on first use. \fBshopsh init\fR [\fB\-\-empty\fR] \fB\-\-store\fR \fIpath\fR
            creates another.
            .TP
            .I ~/.pgpass
            Passwords for PostgreSQL stores, as libpq reads them
            (\fIhost\fR:\fIport\fR:\fIdatabase\fR:\fIuser\fR:\fIpassword\fR, \fB*\fR for any).
            .TP
            .I $XDG_STATE_HOME/shopsh/history\-NAME\-HASH
            The prompt's history, one file per store (\fINAME\fR is the store file's name,
            \fIHASH\fR a hash of its full path), so a test store never pollutes the main one.
            Mode 0600.
            .TP
            .I $XDG_CONFIG_HOME/shopsh/shopshrc
            The start-up file, read by the prompt and by every batch unless \fB\-\-no\-rc\fR:
            \fBset\fR, \fBalias\fR and \fBlet\fR lines (a bad line is reported with its line
            number, the rest still loads). A file others can write, or owned by another user than
            the operator or root, is refused and the run stops, as \fBssh\fR(1) refuses such a config.
            .SH EXAMPLES
            Show a product as JSON, and count the catalogue with \fBjq\fR(1):
            .PP
            .RS 4
            .nf
            shopsh products show 1 \-o json
            shopsh \-c \(aqproducts list \-\-all \-o json\(aq | jq length
            .fi
            .RE
            .PP
            Titles of the five most expensive smartphones, one a line:
            .PP
            .RS 4
            .nf
            shopsh \-c \(aqproducts list \-\-category smartphones \-\-sort price:desc \-\-limit 5 \-o ndjson\(aq \e
              | jq \-r .title
            .fi
            .RE
            .PP
            A CSV file of cheap products in stock, for a spreadsheet, and the same rows
            summed with \fBawk\fR(1) from TSV:
            .PP
            .RS 4
            .nf
            shopsh \-c \(aqproducts list \-\-in\-stock \-\-max\-price 20 \-o csv\(aq > cheap.csv
            shopsh \-c \(aqproducts list \-\-in\-stock \-\-max\-price 20 \-\-fields id,stock \-\-no\-header\(aq \e
              | awk \-F\(aq\et\(aq \(aq{ n += $2 } END { print n }\(aq
            .fi
            .RE
            .PP
            Several commands, one global format:
            .PP
            .RS 4
            .nf
            shopsh \-o json \-c \(aqproducts show 1\(aq \-c \(aqproducts show 2\(aq
            printf \(aqproducts show 1\enproducts show 2\en\(aq | shopsh \-o ndjson
            .fi
            .RE
            .PP
            A file of commands, stopping at the first failure or running them all:
            .PP
            .RS 4
            .nf
            shopsh \-f upkeep.shop
            shopsh \-\-continue\-on\-error \-f upkeep.shop
            .fi
            .RE
            .PP
            At the prompt: a customer's basket, checkout, and a pipe through \fBjq\fR:
            .PP
            .RS 4
            .nf
            shop> use emilys
            shop (emilys)> basket add 162 \-\-qty 2
            shop (emilys)> basket checkout
            shop> orders list \-\-user emilys \-\-status placed
            shop> products list \-\-all \-o json | jq \(aq.[0]\(aq
            .fi
            .RE
            .PP
            A separate, empty store for tests:
            .PP
            .RS 4
            .nf
            shopsh init \-\-empty \-\-store /tmp/test.sqlite
            SHOPSH_STORE=/tmp/test.sqlite shopsh \-c \(aqproducts import catalogue.csv\(aq
            .fi
            .RE
            .SH "SHELL COMPLETION"
            The scripts in \fIcompletions/\fR of the source tree complete commands, options and
            live values from the store in your own shell (they call \fBshopsh\fR back):
            .TP
            .B bash
            Source \fIcompletions/shopsh.bash\fR from \fI~/.bashrc\fR:
            \fBsource /path/to/completions/shopsh.bash\fR
            .TP
            .B zsh
            Put \fIcompletions/_shopsh\fR in a directory on \fB$fpath\fR (for example
            \fBfpath=(~/.zsh/completions $fpath)\fR before \fBcompinit\fR in \fI~/.zshrc\fR).
            .TP
            .B fish
            Copy \fIcompletions/shopsh.fish\fR to \fI~/.config/fish/completions/\fR.
            .SH "SEE ALSO"
            \fBjq\fR(1), \fBsqlite3\fR(1), \fBless\fR(1)
            """#)
        return result
    }

    /// Splits roff source into lines, dropping the indentation of the Swift literal.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
    }
}
