# Turns the help2man page of one subcommand into the body of a subsection of the main page:
# its synopsis, description and option lists; the shared exit-code list is left out (the main
# page has it once).
/^\.SH SYNOPSIS/ { mode = "synopsis"; print ".PP"; next }
/^\.SH DESCRIPTION/ { mode = "body"; print ".PP"; next }
mode == "" { next }
/^\.S[HS] / {
    heading = $0
    sub(/^\.S[HS] /, "", heading)
    gsub(/"/, "", heading)
    skip = (heading == "Exit codes:")
    if (skip) next
    if (heading == "OPTIONS") heading = "Options:"
    print ".PP"
    print "\\fB" heading "\\fR"
    next
}
!skip { print }
