// SPDX-License-Identifier: MIT
// shortKernelName: the function name of a kernel without scope, template arguments, parameters and
// return type, as Nsight Compute's "Function Name" shows it. A small scanner over the demangled
// text: brackets are matched, never guessed from a regular expression, so that template arguments
// holding `operator<`, lambdas, function types or `(anonymous namespace)` do not end the name early.
#include "ridgeline/core/model/demangle.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace ridgeline::core {

namespace {

using std::string_view;
constexpr auto npos = string_view::npos;

constexpr string_view kAnonymous = "(anonymous namespace)"; // GCC, Clang
constexpr string_view kUnnamed = "<unnamed>"; // EDG (cu++filt, Nsight Compute)

bool isIdentifierChar(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) != 0 || c == '_' || c == '$' || u >= 0x80;
}

bool startsWithAt(string_view s, std::size_t i, string_view prefix)
{
    return s.substr(i, prefix.size()) == prefix;
}

// Operator names after the keyword, longest first so that "<<=" is not read as "<".
constexpr std::array<string_view, 39> kOperators { "<=>", "->*", "<<=", ">>=", "()", "[]", "->", "<<", ">>",
    "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<", ">", "+", "-",
    "*", "/", "%", "^", "&", "|", "~", "!", "=", "," };

// The length of an operator's name ("operator<<", "operator ()", "operator new[]", "operator bool")
// starting at i, or 0 when no operator name starts there.
std::size_t operatorLength(string_view s, std::size_t i)
{
    constexpr string_view keyword = "operator";
    if (i >= s.size() || s[i] != 'o') // asked at every character: the common answer without a compare
        return 0;
    if (!startsWithAt(s, i, keyword) || (i > 0 && isIdentifierChar(s[i - 1])))
        return 0;
    std::size_t k = i + keyword.size();
    if (k < s.size() && isIdentifierChar(s[k]))
        return 0; // an identifier such as operator_fn
    if (k < s.size() && s[k] == ' ')
        ++k; // EDG writes "operator ()"
    for (const auto op : kOperators) {
        if (startsWithAt(s, k, op))
            return k + op.size() - i;
    }
    if (startsWithAt(s, k, "\"\"")) { // a literal operator: operator"" _kb
        k += 2;
        while (k < s.size() && (s[k] == ' ' || isIdentifierChar(s[k])))
            ++k;
        return k - i;
    }
    if (k < s.size() && isIdentifierChar(s[k])) { // new, delete[], or a conversion: operator unsigned int
        while (k < s.size() && s[k] != '(' && s[k] != '<')
            ++k;
        while (k > i && s[k - 1] == ' ')
            --k;
        return k - i;
    }
    return 0;
}

struct Match {
    std::size_t end = npos; // one past the closing bracket; npos when the text ends first (truncated) or is malformed
    std::size_t firstComma = npos; // the first comma directly inside the brackets
};

// The bracket opened at s[open] ('<', '(', '[' or '{') and where it closes. Inside parentheses '<'
// and '>' are not brackets (a template argument such as (1>2), or a parameter list's own
// templates, which close inside it anyway).
Match matchBracket(string_view s, std::size_t open)
{
    Match m;
    std::vector<char> stack { s[open] };
    for (std::size_t i = open + 1; i < s.size(); ++i) {
        if (const auto op = operatorLength(s, i)) {
            i += op - 1;
            continue;
        }
        if (startsWithAt(s, i, kAnonymous)) {
            i += kAnonymous.size() - 1;
            continue;
        }
        const char c = s[i];
        const char top = stack.back();
        if (c == '(' || c == '[' || c == '{' || (c == '<' && top != '(')) {
            stack.push_back(c);
        } else if (c == ')' || c == ']' || c == '}' || (c == '>' && top != '(')) {
            if (c == '>' && i > 0 && s[i - 1] == '-')
                continue; // "->" in an expression
            const char wanted = c == ')' ? '(' : c == ']' ? '[' : c == '}' ? '{' : '<';
            if (top != wanted)
                return m; // malformed: treat like a truncated name
            stack.pop_back();
            if (stack.empty()) {
                m.end = i + 1;
                return m;
            }
        } else if (c == ',' && stack.size() == 1 && m.firstComma == npos) {
            m.firstComma = i;
        }
    }
    return m;
}

enum class Kind { Plain, Operator, Lambda, Scope };

struct Component {
    std::string text;
    Kind kind = Kind::Plain;
    string_view firstTemplateArgument;
};

void trim(string_view& s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
}

// After a parameter list: cv- and ref-qualifiers, then "::" when the function is the scope of a
// local entity (a lambda's operator(), a local class); the index after "::", or npos.
std::size_t localScopeAfter(string_view s, std::size_t i)
{
    for (;;) {
        while (i < s.size() && s[i] == ' ')
            ++i;
        bool qualifier = false;
        for (const string_view q : { "const", "volatile", "noexcept", "&&", "&" }) {
            if (startsWithAt(s, i, q)) {
                i += q.size();
                qualifier = true;
                break;
            }
        }
        if (!qualifier)
            break;
    }
    return startsWithAt(s, i, "::") ? i + 2 : npos;
}

// The name's components at the outermost level ("at", "native", "(anonymous namespace)",
// "fused_dropout_kernel_vec"), without the return type and what follows the parameters. Empty
// when the text is not a C++ name (a space before a parenthesis: "Memcpy HtoD (Pinned -> Device)").
std::vector<Component> outerComponents(string_view s)
{
    std::vector<Component> parts;
    Component current;
    auto finish = [&] {
        parts.push_back(std::move(current));
        current = {};
    };
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (current.text.empty() && (startsWithAt(s, i, kAnonymous) || startsWithAt(s, i, kUnnamed))) {
            const auto size = s[i] == '(' ? kAnonymous.size() : kUnnamed.size();
            current.text = s.substr(i, size);
            current.kind = Kind::Scope;
            i += size;
        } else if (const auto op = operatorLength(s, i)) {
            current.text += s.substr(i, op);
            current.kind = Kind::Operator;
            i += op;
            if (startsWithAt(s, i, " <"))
                ++i; // GCC: "operator<< <int>(...)"
        } else if (startsWithAt(s, i, "::")) {
            finish();
            i += 2;
        } else if (c == '<') {
            const auto m = matchBracket(s, i);
            if (m.end == npos) { // truncated inside the template arguments: the name is complete
                current.firstTemplateArgument = s.substr(i + 1, m.firstComma == npos ? npos : m.firstComma - i - 1);
                break;
            }
            current.firstTemplateArgument = s.substr(i + 1, (m.firstComma == npos ? m.end - 1 : m.firstComma) - i - 1);
            i = m.end;
        } else if (c == '(' && current.text.empty() && current.kind == Kind::Plain) {
            return {}; // "(" opening a name: not a C++ function name
        } else if (c == '(' && (current.text == "decltype" || current.text == "__typeof__")) {
            const auto m = matchBracket(s, i); // part of a return type
            if (m.end == npos)
                return {};
            i = m.end;
        } else if (c == '(') {
            if (i > 0 && s[i - 1] == ' ')
                return {};
            const auto m = matchBracket(s, i); // the parameters
            const auto next = m.end == npos ? npos : localScopeAfter(s, m.end);
            finish();
            if (next == npos)
                return parts;
            i = next;
        } else if ((c == '{' || c == '[' || c == '\'') && current.text.empty()) {
            // A lambda or unnamed type as a scope: {lambda(int)#1}, [lambda() (instance 1)], 'lambda'(int)
            const auto end = c == '\'' ? s.find('\'', i + 1) : matchBracket(s, i).end;
            if (end == npos)
                break;
            std::size_t after = c == '\'' ? end + 1 : end;
            if (c == '\'' && after < s.size() && s[after] == '(') { // Clang: 'lambda'(int) carries its signature
                const auto m = matchBracket(s, after);
                if (m.end == npos)
                    break;
                after = m.end;
            }
            current.text = s.substr(i, after - i);
            current.kind = Kind::Lambda;
            i = after;
        } else if (c == '[') { // an ABI tag: f[abi:cxx11]
            const auto m = matchBracket(s, i);
            if (m.end == npos)
                break;
            i = m.end;
        } else if (c == '>' || c == ')' || c == ']' || c == '}') {
            return {}; // a closing bracket that nothing opened: not a C++ name
        } else if (c == ' ') {
            parts.clear(); // what came before was the return type
            current = {};
            ++i;
        } else {
            current.text += c;
            ++i;
        }
    }
    finish();
    return parts;
}

// "{lambda(int)#1}" and "[lambda(int) (instance 1)]" -> "lambda#1"; "'lambda0'(int)" -> "lambda0";
// "{unnamed type#2}" -> "unnamed#2".
std::string compactLambda(string_view text)
{
    auto numberAfter = [&](string_view marker) -> std::string {
        const auto at = text.find(marker);
        if (at == npos)
            return {};
        auto i = at + marker.size();
        std::string digits;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0)
            digits += text[i++];
        return digits.empty() ? std::string() : "#" + digits;
    };
    if (text.starts_with('\'')) {
        const auto close = text.find('\'', 1);
        return std::string(text.substr(1, close == npos ? npos : close - 1));
    }
    const bool lambda = text.substr(1).starts_with("lambda");
    const bool unnamed = text.substr(1).starts_with("unnamed");
    if (!lambda && !unnamed)
        return std::string(text);
    const auto number = text.starts_with('[') ? numberAfter("(instance ") : numberAfter("#");
    return std::string(lambda ? "lambda" : "unnamed") + number;
}

std::string compactOperator(string_view text)
{
    std::string out(text);
    if (out.starts_with("operator ") && out.size() > 9 && !isIdentifierChar(out[9]))
        out.erase(8, 1); // "operator ()" -> "operator()"
    return out;
}

bool isLaunchWrapper(string_view name)
{
    // CUTLASS launches every kernel through Kernel<Operator>, Kernel2<Operator> or
    // device_kernel<Operator>: the operator's name is the kernel's.
    return name == "Kernel" || name == "Kernel2" || name == "device_kernel";
}

bool isBuiltinType(string_view name)
{
    for (const string_view t : { "void", "bool", "char", "short", "int", "long", "float", "double", "unsigned",
             "signed", "__half", "half", "__nv_bfloat16", "wchar_t", "char8_t", "char16_t", "char32_t" }) {
        if (name == t)
            return true;
    }
    return false;
}

bool isIdentifier(string_view name)
{
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0)
        return false;
    for (char c : name) {
        if (!isIdentifierChar(c))
            return false;
    }
    return true;
}

std::string shortOfDemangled(string_view name, int depth);

// The name of the operator type a launch wrapper's first template argument names, or empty.
std::string wrappedName(string_view argument, int depth)
{
    trim(argument);
    if (argument.empty() || depth > 2)
        return {};
    const auto inner = shortOfDemangled(argument, depth + 1);
    return isIdentifier(inner) && !isBuiltinType(inner) ? inner : std::string();
}

std::string shortOfDemangled(string_view name, int depth)
{
    auto parts = outerComponents(name);
    while (!parts.empty() && (parts.back().text.empty() || parts.back().kind == Kind::Scope))
        parts.pop_back();
    if (parts.empty())
        return {};
    const auto& last = parts.back();
    if (last.kind == Kind::Lambda || last.kind == Kind::Operator) {
        // "operator()" or "lambda#1" alone says little: back to the class or function it belongs to.
        std::string text;
        for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
            if (it->kind == Kind::Scope || it->text.empty())
                continue;
            const auto part = it->kind == Kind::Lambda ? compactLambda(it->text)
                : it->kind == Kind::Operator           ? compactOperator(it->text)
                                                       : it->text;
            text = text.empty() ? part : part + "::" + text;
            if (it->kind == Kind::Plain)
                break;
        }
        return text;
    }
    if (isLaunchWrapper(last.text) && !last.firstTemplateArgument.empty()) {
        if (auto inner = wrappedName(last.firstTemplateArgument, depth); !inner.empty())
            return inner;
    }
    return last.text;
}

// Itanium source names of a mangled name that __cxa_demangle rejects (a name cut short by the
// tool that recorded it): _ZN2at6native12_GLOBAL__N_113fused_kernelIfEEvT_ -> "fused_kernel".
struct MangledCursor {
    string_view s;
    std::size_t i = 0;

    bool at(char c) const { return i < s.size() && s[i] == c; }
    bool atDigit() const { return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0; }

    // <number><identifier>; false when the text ends inside it.
    bool sourceName(std::string& out)
    {
        std::size_t length = 0;
        while (atDigit() && length < 100000)
            length = length * 10 + static_cast<std::size_t>(s[i++] - '0');
        if (length == 0 || i >= s.size())
            return false;
        out = s.substr(i, length); // what there is of a name cut short
        i = std::min(i + length, s.size());
        return true;
    }

    // The last source name of a nested or unscoped name; at a template's 'I' when one follows.
    std::string lastName()
    {
        std::string last;
        const bool nested = at('N');
        if (nested)
            ++i;
        while (i < s.size()) {
            if (nested && last.empty() && (at('r') || at('V') || at('K') || at('R') || at('O'))) {
                ++i; // cv- and ref-qualifiers of a member function
            } else if (at('L')) {
                ++i; // internal linkage
            } else if (atDigit()) {
                std::string name;
                if (!sourceName(name))
                    return last;
                last = name.starts_with("_GLOBAL__N") ? last : name;
                if (!nested)
                    return last;
            } else if (at('S')) { // a substitution: St, Sa, S_, S12_
                ++i;
                if (at('t') || at('a') || at('b') || at('s') || at('i') || at('o') || at('d')) {
                    ++i;
                } else {
                    while (i < s.size() && s[i] != '_')
                        ++i;
                    ++i;
                }
            } else {
                return last; // 'I' (template arguments), 'E' (end), 'C'/'D' (structors) or anything else
            }
        }
        return last;
    }
};

std::string shortOfMangled(string_view mangled)
{
    MangledCursor cursor { mangled, 2 };
    if (cursor.at('L'))
        ++cursor.i;
    auto name = cursor.lastName();
    if (isLaunchWrapper(name) && cursor.at('I')) {
        ++cursor.i;
        if (cursor.at('N') || cursor.atDigit()) {
            auto inner = cursor.lastName();
            if (isIdentifier(inner))
                return inner;
        }
    }
    return name;
}

} // namespace

std::string shortKernelName(std::string_view name)
{
    if (name.starts_with("_Z")) {
        const auto demangled = demangle(name);
        if (demangled == name) {
            auto mangledShort = shortOfMangled(name);
            return mangledShort.empty() ? std::string(name) : mangledShort;
        }
        auto out = shortOfDemangled(demangled, 0);
        return out.empty() ? demangled : out;
    }
    auto out = shortOfDemangled(name, 0);
    return out.empty() ? std::string(name) : out;
}

} // namespace ridgeline::core
