// Runs Lua files in order in one MoonSharp script, as TTS runs a Global script: bench/moonsharp.py builds
// this against MoonSharp 2.0.0.0 and passes the files. bench_clock() is this thread's CPU time in ms
// (Linux's CLOCK_THREAD_CPUTIME_ID: other processes on the machine add nothing to it).
// The files run twice, each time in a new Script: the first run, silent, warms mono's JIT up (TTS has long
// compiled MoonSharp's code when a button is pressed); the second prints.
using System;
using System.IO;
using System.Runtime.InteropServices;
using MoonSharp.Interpreter;

static class Runner
{
    [StructLayout(LayoutKind.Sequential)]
    struct Timespec { public long Seconds; public long Nanoseconds; }

    [DllImport("libc", EntryPoint = "clock_gettime")]
    static extern int ClockGettime(int clock, out Timespec time);

    const int ThreadCpuTime = 3;

    static double CpuMs()
    {
        Timespec t;
        if (ClockGettime(ThreadCpuTime, out t) != 0) throw new InvalidOperationException("clock_gettime failed");
        return t.Seconds * 1000.0 + t.Nanoseconds / 1e6;
    }

    static void Run(string[] paths, bool quiet)
    {
        var script = new Script(CoreModules.Preset_Complete);
        script.Options.DebugPrint = line => { if (!quiet) Console.WriteLine(line); };
        script.Globals["bench_clock"] = (Func<double>)CpuMs;
        foreach (var path in paths)
            script.DoString(File.ReadAllText(path), null, Path.GetFileName(path));
    }

    static int Main(string[] args)
    {
        try
        {
            Run(args, true);
            Run(args, false);
        }
        catch (InterpreterException e)
        {
            Console.Error.WriteLine(e.DecoratedMessage ?? e.Message);
            return 1;
        }
        return 0;
    }
}
