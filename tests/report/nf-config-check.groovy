// SPDX-License-Identifier: MIT
// nf-config-check.groovy CONFIG NAMES: reads the Nextflow config that
// `tpmon report --emit=nextflow:CONFIG` wrote as Nextflow does, with
// Groovy's ConfigSlurper (Nextflow's ConfigParser derives from it; the
// withName: label is a Groovy label, the quoted name a block), with
// Nextflow's units as numbers (N.MB: N MB, N.GB: N x 1024 MB, N.min: N x 60
// s), and prints per withName block one line, tab-separated: the names of
// NAMES (one per line, percent-encoded; their line numbers from 0) that its pattern matches as
// Nextflow matches a selector (java.util.regex, whole name; a leading '!'
// negates), cpus, memory and time at attempts 1 and 2, the errorStrategy
// after exit 137 and after exit 1, maxRetries.  Then "limits" and the
// resourceLimits map.
Number.metaClass.getMB = { -> delegate * 1 }
Number.metaClass.getGB = { -> delegate * 1024 }
Number.metaClass.getMin = { -> delegate * 60 }
Number.metaClass.getH = { -> delegate * 3600 }

def at(v, int attempt, int exit) {
    if (!(v instanceof Closure))
        return v
    def c = v.clone()
    c.delegate = [task: [attempt: attempt, exitStatus: exit]]
    c.resolveStrategy = Closure.DELEGATE_FIRST
    return c.call()
}

def names = new File(args[1]).readLines().collect { URLDecoder.decode(it, 'UTF-8') }
def cfg = new ConfigSlurper().parse(new File(args[0]).text)
cfg.process.each { k, v ->
    if (k == 'resourceLimits') {
        println "limits\t${v}"
        return
    }
    def neg = k.startsWith('!')
    def p = java.util.regex.Pattern.compile(neg ? k.substring(1) : k)
    def hit = (0..<names.size()).findAll { p.matcher(names[it]).matches() != neg }
    println([hit.join(','), v.cpus,
             at(v.memory, 1, 137), at(v.memory, 2, 137), at(v.time, 1, 0), at(v.time, 2, 140),
             at(v.errorStrategy, 1, 137), at(v.errorStrategy, 1, 1), v.maxRetries].join('\t'))
}
