// SPDX-License-Identifier: MIT
// nf-input-check.groovy CONFIG PROCESS DIRECTIVE FILE...: reads the Nextflow config
// of `tpmon report --recommend=input --emit=nextflow:CONFIG` with Groovy's
// ConfigSlurper (as nf-config-check.groovy does, Nextflow's units as
// numbers: N.MB is N, N.min is N x 60), and evaluates PROCESS's DIRECTIVE
// (memory, time) closure as Nextflow does, its delegate the task's context: a map of
// the input variables (here `reads`, the FILE as a java.nio.file.Path;
// "-": no input file) and task.attempt.  Prints per FILE one line: the
// value at attempts 1, 2 and 3.
Number.metaClass.getMB = { -> delegate * 1 }
Number.metaClass.getGB = { -> delegate * 1024 }
Number.metaClass.getMin = { -> delegate * 60 }

def cfg = new ConfigSlurper().parse(new File(args[0]).text)
def block = cfg.process[args[1]]
args.drop(3).each { file ->
    def vals = (1..3).collect { attempt ->
        def c = block[args[2]].clone()
        def ctx = [task: [attempt: attempt, exitStatus: 137]]
        if (file != '-')
            ctx.reads = java.nio.file.Paths.get(file)
        c.delegate = ctx
        c.resolveStrategy = Closure.DELEGATE_FIRST
        c.call()
    }
    println vals.join(' ')
}
