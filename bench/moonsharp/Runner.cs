// Runs Lua files in order in one MoonSharp script, as TTS runs a Global script: bench/moonsharp.py builds
// this against MoonSharp 2.0.0.0 and passes the files. bench_clock() is a Stopwatch in milliseconds.
using System;
using System.Diagnostics;
using System.IO;
using MoonSharp.Interpreter;

static class Runner
{
    static int Main(string[] args)
    {
        var script = new Script(CoreModules.Preset_Complete);
        script.Options.DebugPrint = line => Console.WriteLine(line);
        var watch = Stopwatch.StartNew();
        script.Globals["bench_clock"] = (Func<double>)(() => watch.Elapsed.TotalMilliseconds);
        try
        {
            foreach (var path in args)
                script.DoString(File.ReadAllText(path), null, Path.GetFileName(path));
        }
        catch (InterpreterException e)
        {
            Console.Error.WriteLine(e.DecoratedMessage ?? e.Message);
            return 1;
        }
        return 0;
    }
}
