# Reads the --help text of a CLI11 program and prints one line per item it lists:
#   <section> TAB <names> TAB <argument spec>
# e.g. "Options	-f,--format	TEXT:{table,csv,json}=table", "Subcommands	report	".
# CLI11 pads "  NAME SPEC" to a 30-column field and puts the description after it, or on the
# next line when the field is full; headings ("Options:") start in column 1 and end with ':'.
# Shared by the completion and manual-page generators (installer/completion, installer/man).
BEGIN { width = 30; section = "" }
/^[^ ].*:$/ { section = substr($0, 1, length($0) - 1); next }
/^[^ ]/ { section = ""; next }        # description, usage line, footer prose
/^  [^ ]/ && section != "" {
    head = $0
    if (length(head) > width && substr(head, width, 1) == " " && substr(head, width + 1, 1) != " ")
        head = substr(head, 1, width - 1)
    sub(/^  /, "", head)
    sub(/ +$/, "", head)
    n = index(head, " ")
    if (n > 0)
        printf "%s\t%s\t%s\n", section, substr(head, 1, n - 1), substr(head, n + 1)
    else
        printf "%s\t%s\t\n", section, head
}
